package memory

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:recover", Domain: "memory",
		New: newMemRecoverApp, Main: convention.Main(newMemRecoverApp)})
}

func newMemRecoverApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "mem:recover",
		Usage:    "Render a post-compaction recovery block for a WU",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("wu", "work unit", true),
			convention.Int("max-size", "size cap in bytes", 8192, convention.Bound(1), nil),
		},
		Action: memRecover,
	})
}

func memRecover(c *convention.Call) error {
	id := c.Value("wu")
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	maxSize := c.Int("max-size")
	data, notes, err := ops.MemRecover(c.Context(), ws, c.Runtime(), ops.MemRecoverInput{WU: id, MaxSize: &maxSize})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
