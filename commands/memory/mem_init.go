package memory

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:init", Domain: "memory",
		New: newMemInitApp, Main: convention.Main(newMemInitApp)})
}

func newMemInitApp() *cli.App {
	return convention.App(convention.Spec{
		Name:       "mem:init",
		Usage:      "Create the memory store (.lumenflow/memory) when it is missing",
		Idempotent: true,
		Action:     memInit,
	})
}

func memInit(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	data, notes, err := ops.MemInit(c.Context(), ws, c.Runtime(), ops.MemInitInput{})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Result(notes.Headline, data)
}
