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
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "file:edit", Domain: "files",
		New: newFileEditApp, Main: convention.Main(newFileEditApp)})
}

func newFileEditApp() *cli.App {
	return convention.App(convention.Spec{
		Name:        "file:edit",
		Usage:       "Replace an exact byte string in a workspace file",
		Destructive: true,
		Paths:       map[string]string{"path": "write"},
		Flags: []cli.Flag{
			convention.NonEmpty(&cli.StringFlag{Name: "path", Usage: "file to edit", Required: true}),
			convention.NonEmpty(&cli.StringFlag{Name: "old-string", Usage: "exact bytes to replace (non-empty)", Required: true}),
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
	root, rel, err := confineRoot(c, c.String("path"), true)
	if err != nil {
		return err
	}
	defer root.Close()
	data, err := root.ReadFile(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c.Failf(tool.CodeNotFound, "file %s not found", rel)
	case err != nil && isDir(root, rel):
		return c.Failf(tool.CodeValidation, "%s is a directory", rel)
	case err != nil:
		return delivery.RootError("read", rel, err)
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
	if err := delivery.WriteFileAtomicIn(root, rel, bytes.ReplaceAll(data, oldS, newS), 0o644); err != nil {
		return delivery.RootError("write", rel, err)
	}
	return c.Result(fmt.Sprintf("Replaced %d occurrence(s) in %s", count, rel),
		fileEditData{Path: rel, Replacements: count})
}

func isDir(root *os.Root, rel string) bool {
	fi, err := root.Stat(rel)
	return err == nil && fi.IsDir()
}

// fileEditData is file:edit's JSON data.
type fileEditData struct {
	Path         string `json:"path"`
	Replacements int    `json:"replacements"`
}
