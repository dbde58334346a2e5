package files

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "file:read", Domain: "files",
		New: newFileReadApp, Main: convention.Main(newFileReadApp)})
}

func newFileReadApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "file:read",
		Usage:    "Print a workspace file, or a range of its lines, byte-exact",
		ReadOnly: true, Idempotent: true,
		Paths: map[string]string{"path": "read"},
		Flags: []cli.Flag{
			convention.NonEmpty(&cli.StringFlag{Name: "path", Usage: "file to read", Required: true}),
			convention.Int("start-line", "first line to print, 1-based", 0, convention.Bound(1), nil),
			convention.Int("end-line", "last line to print, inclusive", 0, convention.Bound(1), nil),
			convention.Int("max-size", "largest file size accepted, in bytes", 10485760, nil, nil),
			convention.Enum("encoding", "output encoding", "utf8", "utf8", "base64"),
		},
		Action: fileRead,
	})
}

func fileRead(c *convention.Call) error {
	maxSize := c.Int("max-size")
	in := ops.FileReadInput{Path: c.String("path"), MaxSize: &maxSize, Encoding: c.Value("encoding"), JSON: c.JSON}
	// Only given line flags count: an absent start is line 1, an absent end the last line.
	if c.IsSet("start-line") {
		start := c.Int("start-line")
		in.StartLine = &start
	}
	if c.IsSet("end-line") {
		end := c.Int("end-line")
		in.EndLine = &end
	}
	dir, err := c.Dir()
	if err != nil {
		return err
	}
	data, notes, err := ops.FileRead(c.Context(), dir, c.LookupEnv, in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
