package files

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "file:write", Domain: "files",
		New: newFileWriteApp, Main: convention.Main(newFileWriteApp)})
}

func newFileWriteApp() *cli.App {
	return convention.App(convention.Spec{
		Name:        "file:write",
		Usage:       "Write exactly the given bytes to a workspace file, atomically",
		Destructive: true, Idempotent: true,
		Paths: map[string]string{"path": "write"},
		Flags: []cli.Flag{
			convention.NonEmpty(&cli.StringFlag{Name: "path", Usage: "file to write", Required: true}),
			&cli.StringFlag{Name: "content", Usage: "the bytes to write (may be empty)", Required: true},
			convention.Enum("encoding", "encoding of --content", "utf8", "utf8", "base64"),
			&cli.BoolFlag{Name: "no-create-dirs", Usage: "fail instead of creating missing parent directories"},
		},
		Action: fileWrite,
	})
}

func fileWrite(c *convention.Call) error {
	dir, err := c.Dir()
	if err != nil {
		return err
	}
	data, notes, err := ops.FileWrite(c.Context(), dir, c.LookupEnv, ops.FileWriteInput{Path: c.String("path"),
		Content: c.String("content"), Encoding: c.Value("encoding"), NoCreateDirs: c.Bool("no-create-dirs")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Result(notes.Headline, data)
}
