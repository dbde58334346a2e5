package files

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
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
	dir, err := c.Dir()
	if err != nil {
		return err
	}
	data, notes, err := ops.FileEdit(c.Context(), dir, c.LookupEnv, ops.FileEditInput{Path: c.String("path"),
		Old: c.String("old-string"), New: c.String("new-string"), ReplaceAll: c.Bool("replace-all")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Result(notes.Headline, data)
}
