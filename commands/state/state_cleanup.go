package state

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "state:cleanup",
		New: newStateCleanupApp, Main: convention.Main(newStateCleanupApp)})
}

func newStateCleanupApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "state:cleanup",
		Usage: "Prune runtime state: expired signals, then memory, then archive the events of long-done WUs",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "report what would be removed without writing"},
			&cli.BoolFlag{Name: "signals-only", Usage: "run only the signal step"},
			&cli.BoolFlag{Name: "memory-only", Usage: "run only the memory step"},
			&cli.BoolFlag{Name: "events-only", Usage: "run only the event step"},
		},
		Rules: []convention.Rule{
			convention.Exclusive("signals-only", "memory-only"),
			convention.Exclusive("signals-only", "events-only"),
			convention.Exclusive("memory-only", "events-only"),
		},
		Destructive: true,
		Idempotent:  true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
		Action:      stateCleanup,
	})
}

func stateCleanup(c *convention.Call) error {
	ws, err := c.Workspace(ops.StateCleanupKeys...)
	if err != nil {
		return err
	}
	in := ops.StateCleanupInput{DryRun: c.Bool("dry-run")}
	for _, f := range []string{"signals-only", "memory-only", "events-only"} {
		if c.Bool(f) {
			in.Only = strings.TrimSuffix(f, "-only")
		}
	}
	data, notes, err := ops.StateCleanup(c.Context(), ws, c.Runtime(), in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	text := notes.Text
	if !c.JSON {
		text += convention.CommitLines(convention.OpsCommit(data.Commit))
	}
	return c.Print(text, data)
}
