package state

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "state:doctor",
		New: newStateDoctorApp, Main: convention.Main(newStateDoctorApp)})
}

func newStateDoctorApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "state:doctor",
		Usage: "Check the integrity of the whole workspace state (WUs, stamps, events, signals, locks); --fix repairs it",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "fix", Usage: "repair the fixable issues and commit the changed artifacts"},
			&cli.BoolFlag{Name: "dry-run", Usage: "with --fix: only report what is fixable, write nothing"},
		},
		Destructive: true,
		Idempotent:  true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("fix")), tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
		Action:      stateDoctor,
	})
}

func stateDoctor(c *convention.Call) error {
	ws, err := c.Workspace(ops.StateDoctorKeys...)
	if err != nil {
		return err
	}
	data, notes, err := ops.StateDoctor(c.Context(), ws, c.Runtime(), ops.StateDoctorInput{Fix: c.Bool("fix"), DryRun: c.Bool("dry-run")})
	c.Notes(notes)
	if err != nil {
		if delivery.AsError(err).Code == tool.CodeCheckFailed {
			// A failed check prints its report and carries it in the failure envelope.
			return c.FailReporting(err, notes.Text+convention.CommitLines(convention.OpsCommit(data.Commit)), data)
		}
		return err
	}
	return c.Print(notes.Text+convention.CommitLines(convention.OpsCommit(data.Commit)), data)
}
