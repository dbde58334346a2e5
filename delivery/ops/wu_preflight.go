package ops

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WUPreflightInput is wu:preflight's input.
type WUPreflightInput struct {
	// ID is the WU to check (required; its form is the shell's check).
	ID string
	// Worktree is the --worktree base directory ("" when absent): relative to Dir.
	Worktree string
	// Dir is the directory the call was started in (the command's current directory).
	Dir string
}

// WUPreflightData is wu:preflight's JSON data, on success and with its CHECK_FAILED failure.
type WUPreflightData struct {
	ID               string   `json:"id"`
	BaseDir          string   `json:"base_dir"`
	OK               bool     `json:"ok"`
	MissingCodePaths []string `json:"missing_code_paths"`
	MissingTestPaths []string `json:"missing_test_paths"`
	Errors           []string `json:"errors"`
}

// WUPreflight is corpus §3.1 wu:preflight: the WU's structural errors, its code_paths that
// do not exist (a glob must match at least one file, case-insensitively) and its unit,
// integration and e2e tests that do not exist, under the base directory (Worktree, else
// the WU's existing worktree, else the root). A failed check is CHECK_FAILED returned with
// its data; a WU that cannot be read is its error with no data. Notes.Text is the whole
// text report ("Preflight <id>: ok", or "…: failed" then "  error: …" and "  missing: …"
// lines).
func WUPreflight(ctx context.Context, ws *delivery.Workspace, in WUPreflightInput) (WUPreflightData, Notes, error) {
	var notes Notes
	w, err := delivery.ReadWU(ws, in.ID)
	if err != nil {
		return WUPreflightData{}, notes, err
	}
	base := ws.Root
	if dir := worktreeDir(ws, w); dir != "" {
		base = ws.Abs(dir)
	}
	if p := in.Worktree; p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(in.Dir, p)
		}
		base = filepath.Clean(p)
	}
	data := WUPreflightData{ID: w.ID, BaseDir: preflightRelDir(ws, base), MissingCodePaths: []string{},
		MissingTestPaths: []string{}, Errors: orEmpty(delivery.ValidateStructure(w))}
	var files []string // every file under base, lower-cased, read once for the globs
	for _, p := range w.CodePaths {
		if strings.ContainsAny(p, "*?[") {
			if files == nil {
				if files, err = preflightFiles(base); err != nil {
					return WUPreflightData{}, notes, err
				}
			}
			if !preflightAnyMatch(p, files) {
				data.MissingCodePaths = append(data.MissingCodePaths, p)
			}
		} else if !preflightExists(base, p) {
			data.MissingCodePaths = append(data.MissingCodePaths, p)
		}
	}
	for _, group := range [][]string{w.Tests.Unit, w.Tests.Integration, w.Tests.E2E} {
		for _, p := range group {
			if !preflightExists(base, p) {
				data.MissingTestPaths = append(data.MissingTestPaths, p)
			}
		}
	}
	data.OK = len(data.Errors) == 0 && len(data.MissingCodePaths) == 0 && len(data.MissingTestPaths) == 0
	var text strings.Builder
	if data.OK {
		fmt.Fprintf(&text, "Preflight %s: ok\n", w.ID)
		notes.Text = text.String()
		return data, notes, nil
	}
	fmt.Fprintf(&text, "Preflight %s: failed\n", w.ID)
	for _, e := range data.Errors {
		fmt.Fprintf(&text, "  error: %s\n", e)
	}
	for _, p := range append(append([]string(nil), data.MissingCodePaths...), data.MissingTestPaths...) {
		fmt.Fprintf(&text, "  missing: %s\n", p)
	}
	notes.Text = text.String()
	return data, notes, delivery.Errorf(tool.CodeCheckFailed, "preflight of %s failed: %d missing path(s), %d error(s)", w.ID,
		len(data.MissingCodePaths)+len(data.MissingTestPaths), len(data.Errors))
}

// preflightRelDir renders a directory for output: root-relative with "/" separators, "."
// for the root, absolute when it lies outside the root.
func preflightRelDir(ws *delivery.Workspace, abs string) string {
	rel, err := filepath.Rel(ws.Root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}

// preflightExists reports whether the slash path p exists under base.
func preflightExists(base, p string) bool {
	_, err := os.Stat(filepath.Join(base, filepath.FromSlash(p)))
	return err == nil
}

// preflightFiles returns every file under base as a lower-cased slash path, skipping .git.
func preflightFiles(base string) ([]string, error) {
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

// preflightAnyMatch reports whether the glob matches one of files, case-insensitively
// (corpus §1.14).
func preflightAnyMatch(glob string, files []string) bool {
	g := strings.ToLower(glob)
	for _, f := range files {
		if ok, _ := doublestar.Match(g, f); ok {
			return true
		}
	}
	return false
}
