package memory

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:context", Domain: "memory",
		New: newMemContextApp, Main: convention.Main(newMemContextApp)})
}

func newMemContextApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "mem:context",
		Usage:    "Render the memory context of a WU as size-capped markdown",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("wu", "work unit", true),
			&cli.StringFlag{Name: "lane", Usage: "only project nodes of this lane (or of none)"},
			convention.Int("max-size", "size cap in bytes (default: memory.delegation_context_max_size)", 0, convention.Bound(1), nil),
		},
		Action: memContext,
	})
}

func memContext(c *convention.Call) error {
	ws, err := c.Workspace(ops.MemContextKeys...)
	if err != nil {
		return err
	}
	in := ops.MemContextInput{WU: c.Value("wu"), Lane: c.String("lane")}
	if c.IsSet("max-size") {
		size := c.Int("max-size")
		in.MaxSize = &size
	}
	data, notes, err := ops.MemContext(c.Context(), ws, in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
