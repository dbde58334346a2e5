package files

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

func init() {
	commands.Register(commands.Command{Name: "file:delete", Domain: "files",
		New: newFileDeleteApp, Main: convention.Main(newFileDeleteApp)})
}

func newFileDeleteApp() *cli.App {
	return convention.App(convention.Spec{
		Name:        "file:delete",
		Usage:       "Delete a workspace file or, with --recursive, a directory",
		Destructive: true, Idempotent: true,
		Paths: map[string]string{"path": "write"},
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "path", Usage: "file or directory to delete", Required: true},
			&cli.BoolFlag{Name: "recursive", Usage: "delete a directory and everything in it"},
			&cli.BoolFlag{Name: "force", Usage: "a missing path is not an error"},
		},
		Action: fileDelete,
	})
}

func fileDelete(c *convention.Call) error {
	target, rel, err := deleteTarget(c, c.String("path"))
	if err != nil {
		return err
	}
	if rel == "." {
		return c.Failf(tool.CodeValidation, "the workspace root cannot be deleted")
	}
	fi, err := os.Lstat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist) && c.Bool("force"):
		return c.Result("Nothing to delete at "+rel, fileDeleteData{Path: rel})
	case errors.Is(err, fs.ErrNotExist):
		return c.Failf(tool.CodeNotFound, "%s not found", rel)
	case err != nil:
		return delivery.Errorf(tool.CodeIOError, "stat %s: %w", rel, err)
	case fi.IsDir() && !c.Bool("recursive"):
		return c.Failf(tool.CodeValidation, "%s is a directory; use --recursive", rel)
	}
	if fi.IsDir() {
		err = os.RemoveAll(target)
	} else {
		err = os.Remove(target)
	}
	if err != nil {
		return delivery.Errorf(tool.CodeIOError, "delete %s: %w", rel, err)
	}
	return c.Result("Deleted "+rel, fileDeleteData{Path: rel, Deleted: true, WasDirectory: fi.IsDir()})
}

// deleteTarget confines p and returns what to remove: a symlink itself (whose parent is
// confined), never the file it points to; otherwise the confined path.
func deleteTarget(c *convention.Call, p string) (target, rel string, err error) {
	cwd, err := c.Dir()
	if err != nil {
		return "", "", err
	}
	lexical := p
	if !filepath.IsAbs(lexical) {
		lexical = filepath.Join(cwd, p)
	}
	lexical = filepath.Clean(lexical)
	if fi, lerr := os.Lstat(lexical); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		parent, parentRel, err := confine(c, filepath.Dir(lexical), true)
		if err != nil {
			return "", "", err
		}
		rel = path.Join(parentRel, filepath.Base(lexical))
		if rel == ".git" {
			return "", "", delivery.Errorf(tool.CodePathOutsideWorkspace, "path %s is inside .git and cannot be modified", p)
		}
		return filepath.Join(parent, filepath.Base(lexical)), rel, nil
	}
	return confine(c, p, true)
}

// fileDeleteData is file:delete's JSON data.
type fileDeleteData struct {
	Path         string `json:"path"`
	Deleted      bool   `json:"deleted"`
	WasDirectory bool   `json:"was_directory"`
}
