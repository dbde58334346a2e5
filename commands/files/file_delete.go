package files

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
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
			convention.NonEmpty(&cli.StringFlag{Name: "path", Usage: "file or directory to delete", Required: true}),
			&cli.BoolFlag{Name: "recursive", Usage: "delete a directory and everything in it"},
			&cli.BoolFlag{Name: "force", Usage: "a missing path is not an error"},
		},
		Action: fileDelete,
	})
}

func fileDelete(c *convention.Call) error {
	dir, err := c.Dir()
	if err != nil {
		return err
	}
	data, notes, err := ops.FileDelete(c.Context(), dir, c.LookupEnv, ops.FileDeleteInput{Path: c.String("path"),
		Recursive: c.Bool("recursive"), Force: c.Bool("force")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Result(notes.Headline, data)
}
