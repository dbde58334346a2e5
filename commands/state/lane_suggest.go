package state

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "lane:suggest", Domain: "state",
		New: newLaneSuggestApp, Main: convention.Main(newLaneSuggestApp)})
}

func newLaneSuggestApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "lane:suggest",
		Usage: "Propose lane definitions for directories no lane covers (deterministic, offline)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Usage: "write the YAML snippet to this file (otherwise nothing is written)"},
		},
		Idempotent:  true,
		Paths:       map[string]string{"output": "write"},
		Destructive: true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("output"))},
		Action:      laneSuggest,
	})
}

func laneSuggest(c *convention.Call) error {
	ws, err := c.Workspace(ops.LaneSuggestKeys...)
	if err != nil {
		return err
	}
	in := ops.LaneSuggestInput{Output: c.String("output")}
	if in.Output != "" {
		if in.Dir, err = c.Dir(); err != nil {
			return err
		}
	}
	data, notes, err := ops.LaneSuggest(c.Context(), ws, c.Runtime(), in)
	if err != nil {
		return err
	}
	if data.Output != nil {
		c.Progress("wrote %s", *data.Output)
	}
	return c.Print(notes.Text, data)
}
