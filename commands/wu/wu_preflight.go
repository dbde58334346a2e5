package wu

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:preflight",
		New: newWUPreflightApp, Main: convention.Main(newWUPreflightApp)})
}

func newWUPreflightApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "wu:preflight",
		Usage:    "Check that a WU's code and test paths exist before its gates run",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("id", "WU to check", true),
			&cli.StringFlag{Name: "worktree", Usage: "base directory (default: the WU's worktree if it exists, otherwise the root)"},
		},
		Paths:  map[string]string{"worktree": "read"},
		Action: wuPreflight,
	})
}

func wuPreflight(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	w, err := delivery.ReadWU(ws, c.Value("id"))
	if err != nil {
		return err
	}
	base := ws.Root
	if dir := worktreeDir(ws, w); dir != "" {
		base = ws.Abs(dir)
	}
	if p := c.String("worktree"); p != "" {
		cwd, err := c.Dir()
		if err != nil {
			return err
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		base = filepath.Clean(p)
	}
	data := wuPreflightData{ID: w.ID, BaseDir: relDir(ws, base), MissingCodePaths: []string{},
		MissingTestPaths: []string{}, Errors: delivery.ValidateStructure(w)}
	if data.Errors == nil {
		data.Errors = []string{}
	}
	var files []string // every file under base, lower-cased, read once for the globs
	for _, p := range w.CodePaths {
		if strings.ContainsAny(p, "*?[") {
			if files == nil {
				if files, err = listFiles(base); err != nil {
					return err
				}
			}
			if !anyMatch(p, files) {
				data.MissingCodePaths = append(data.MissingCodePaths, p)
			}
		} else if !pathExists(base, p) {
			data.MissingCodePaths = append(data.MissingCodePaths, p)
		}
	}
	for _, group := range [][]string{w.Tests.Unit, w.Tests.Integration, w.Tests.E2E} {
		for _, p := range group {
			if !pathExists(base, p) {
				data.MissingTestPaths = append(data.MissingTestPaths, p)
			}
		}
	}
	data.OK = len(data.Errors) == 0 && len(data.MissingCodePaths) == 0 && len(data.MissingTestPaths) == 0
	var text strings.Builder
	if data.OK {
		fmt.Fprintf(&text, "Preflight %s: ok\n", w.ID)
		return c.Print(text.String(), data)
	}
	fmt.Fprintf(&text, "Preflight %s: failed\n", w.ID)
	for _, e := range data.Errors {
		fmt.Fprintf(&text, "  error: %s\n", e)
	}
	for _, p := range append(append([]string(nil), data.MissingCodePaths...), data.MissingTestPaths...) {
		fmt.Fprintf(&text, "  missing: %s\n", p)
	}
	if !c.JSON {
		if err := c.Print(text.String(), nil); err != nil {
			return err
		}
	}
	c.Partial(data)
	return c.Failf(tool.CodeCheckFailed, "preflight of %s failed: %d missing path(s), %d error(s)", w.ID,
		len(data.MissingCodePaths)+len(data.MissingTestPaths), len(data.Errors))
}

// pathExists reports whether the slash path p exists under base.
func pathExists(base, p string) bool {
	_, err := os.Stat(filepath.Join(base, filepath.FromSlash(p)))
	return err == nil
}

// listFiles returns every file under base as a lower-cased slash path, skipping .git.
func listFiles(base string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable entries cannot match
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(base, p)
			out = append(out, strings.ToLower(filepath.ToSlash(rel)))
		}
		return nil
	})
	if err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "list %s: %w", base, err)
	}
	return out, nil
}

// anyMatch reports whether the glob matches one of files, case-insensitively (spec §1.14).
func anyMatch(glob string, files []string) bool {
	g := strings.ToLower(glob)
	for _, f := range files {
		if ok, _ := doublestar.Match(g, f); ok {
			return true
		}
	}
	return false
}

// wuPreflightData is wu:preflight's JSON data.
type wuPreflightData struct {
	ID               string   `json:"id"`
	BaseDir          string   `json:"base_dir"`
	OK               bool     `json:"ok"`
	MissingCodePaths []string `json:"missing_code_paths"`
	MissingTestPaths []string `json:"missing_test_paths"`
	Errors           []string `json:"errors"`
}
