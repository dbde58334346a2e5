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
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "file:delete", Domain: "files",
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
	root, rel, err := deleteTarget(c, c.String("path"))
	if err != nil {
		return err
	}
	defer root.Close()
	if rel == "." {
		return c.Failf(tool.CodeValidation, "the workspace root cannot be deleted")
	}
	fi, err := root.Lstat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist) && c.Bool("force"):
		return c.Result("Nothing to delete at "+rel, fileDeleteData{Path: rel})
	case errors.Is(err, fs.ErrNotExist):
		return c.Failf(tool.CodeNotFound, "%s not found", rel)
	case err != nil:
		return delivery.RootError("stat", rel, err)
	case fi.IsDir() && !c.Bool("recursive"):
		return c.Failf(tool.CodeValidation, "%s is a directory; use --recursive", rel)
	}
	if fi.IsDir() {
		err = root.RemoveAll(rel)
	} else {
		err = root.Remove(rel)
	}
	if err != nil {
		return delivery.RootError("delete", rel, err)
	}
	return c.Result("Deleted "+rel, fileDeleteData{Path: rel, Deleted: true, WasDirectory: fi.IsDir()})
}

// deleteTarget confines p and returns what to remove, as a path relative to the opened
// root it was confined to: a symlink itself (whose parent is confined), never the file it
// points to; otherwise the confined path. The caller closes the root.
func deleteTarget(c *convention.Call, p string) (root *os.Root, rel string, err error) {
	cwd, err := c.Dir()
	if err != nil {
		return nil, "", err
	}
	lexical := p
	if !filepath.IsAbs(lexical) {
		lexical = filepath.Join(cwd, p)
	}
	lexical = filepath.Clean(lexical)
	if fi, lerr := os.Lstat(lexical); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		root, parentRel, err := confineRoot(c, filepath.Dir(lexical), true)
		if err != nil {
			return nil, "", err
		}
		rel = path.Join(parentRel, filepath.Base(lexical))
		if rel == ".git" {
			root.Close()
			return nil, "", delivery.Errorf(tool.CodePathOutsideWorkspace, "path %s is inside .git and cannot be modified", p)
		}
		return root, rel, nil
	}
	return confineRoot(c, p, true)
}

// fileDeleteData is file:delete's JSON data.
type fileDeleteData struct {
	Path         string `json:"path"`
	Deleted      bool   `json:"deleted"`
	WasDirectory bool   `json:"was_directory"`
}
