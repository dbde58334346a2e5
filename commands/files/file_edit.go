package files

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

func init() {
	commands.Register(commands.Command{Name: "file:edit", Domain: "files",
		New: newFileEditApp, Main: convention.Main(newFileEditApp)})
}

func newFileEditApp() *cli.App {
	return convention.App(convention.Spec{
		Name:        "file:edit",
		Usage:       "Replace an exact byte string in a workspace file",
		Destructive: true,
		Paths:       map[string]string{"path": "write"},
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "path", Usage: "file to edit", Required: true},
			&cli.StringFlag{Name: "old-string", Usage: "exact bytes to replace (non-empty)", Required: true},
			&cli.StringFlag{Name: "new-string", Usage: "replacement bytes (may be empty)", Required: true},
			&cli.BoolFlag{Name: "replace-all", Usage: "replace every occurrence instead of exactly one"},
		},
		Action: fileEdit,
	})
}

func fileEdit(c *convention.Call) error {
	oldS, newS := []byte(c.String("old-string")), []byte(c.String("new-string"))
	if len(oldS) == 0 {
		return c.Failf(tool.CodeValidation, "--old-string must not be empty")
	}
	if bytes.Equal(oldS, newS) {
		return c.Failf(tool.CodeValidation, "--old-string and --new-string are the same")
	}
	abs, rel, err := confine(c, c.String("path"), true)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c.Failf(tool.CodeNotFound, "file %s not found", rel)
	case err != nil && isDir(abs):
		return c.Failf(tool.CodeValidation, "%s is a directory", rel)
	case err != nil:
		return delivery.Errorf(tool.CodeIOError, "read %s: %w", rel, err)
	}
	count := bytes.Count(data, oldS)
	switch {
	case count == 0:
		return c.Failf(tool.CodeNotFound, "--old-string not found in %s", rel)
	case count > 1 && !c.Bool("replace-all"):
		return c.Fail(tool.CodeNotUnique,
			fmt.Sprintf("--old-string occurs %d times in %s; use --replace-all or a longer string", count, rel),
			map[string]any{"count": count})
	}
	if err := delivery.WriteFileAtomic(abs, bytes.ReplaceAll(data, oldS, newS), 0o644); err != nil {
		return delivery.Errorf(tool.CodeIOError, "write %s: %w", rel, err)
	}
	return c.Result(fmt.Sprintf("Replaced %d occurrence(s) in %s", count, rel),
		fileEditData{Path: rel, Replacements: count})
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// fileEditData is file:edit's JSON data.
type fileEditData struct {
	Path         string `json:"path"`
	Replacements int    `json:"replacements"`
}
