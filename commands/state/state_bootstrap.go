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
	commands.Register(legacy.Command{Name: "state:bootstrap",
		New: newStateBootstrapApp, Main: convention.Main(newStateBootstrapApp)})
}

func newStateBootstrapApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "state:bootstrap",
		Usage: "Build wu-events.jsonl from the WU YAMLs (one-off migration; dry run unless --execute)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "execute", Usage: "write the log (the default is a dry run)"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite a non-empty event log"},
		},
		Destructive: true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("execute"))},
		Action:      stateBootstrap,
	})
}

func stateBootstrap(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	if err := ws.Config.Check(ops.StateBootstrapKeys...); err != nil {
		return err
	}
	data, notes, err := ops.StateBootstrap(c.Context(), ws, c.Runtime(), ops.StateBootstrapInput{Execute: c.Bool("execute"), Force: c.Bool("force")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
