package memory

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:export", Domain: "memory",
		New: newMemExportApp, Main: convention.Main(newMemExportApp)})
}

func newMemExportApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "mem:export",
		Usage:    "Export visible memory nodes as markdown",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("wu", "only nodes of this work unit (default: the current session's)", false),
			&cli.StringFlag{Name: "type", Usage: "only nodes of this type"},
			convention.Enum("lifecycle", "only nodes of this lifecycle", "", delivery.Lifecycles...),
		},
		Action: memExport,
	})
}

func memExport(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	data, notes, err := ops.MemExport(c.Context(), ws, ops.MemExportInput{WU: c.Value("wu"),
		Type: c.String("type"), Lifecycle: c.Value("lifecycle")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
