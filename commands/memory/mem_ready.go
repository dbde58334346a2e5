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
	commands.Register(legacy.Command{Name: "mem:ready", Domain: "memory",
		New: newMemReadyApp, Main: convention.Main(newMemReadyApp)})
}

func newMemReadyApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "mem:ready",
		Usage:    "List the open memory nodes of a WU, highest priority first",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("wu", "work unit", true),
			convention.Enum("type", "only nodes of this type", "", delivery.MemoryTypes...),
		},
		Action: memReady,
	})
}

func memReady(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	data, notes, err := ops.MemReady(c.Context(), ws, ops.MemReadyInput{WU: c.Value("wu"), Type: c.Value("type")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Print(notes.Text, data)
}
