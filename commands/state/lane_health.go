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
	commands.Register(legacy.Command{Name: "lane:health", Domain: "state",
		New: newLaneHealthApp, Main: convention.Main(newLaneHealthApp)})
}

func newLaneHealthApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "lane:health",
		Usage: "Check lane definitions against the repository's files (overlaps and gaps)",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "verbose", Usage: "list the files no lane covers"},
			&cli.BoolFlag{Name: "no-coverage", Usage: "skip the gap check"},
		},
		ReadOnly:   true,
		Idempotent: true,
		Action:     laneHealth,
	})
}

func laneHealth(c *convention.Call) error {
	ws, err := c.Workspace(ops.LaneHealthKeys...)
	if err != nil {
		return err
	}
	in := ops.LaneHealthInput{Verbose: c.Bool("verbose"), NoCoverage: c.Bool("no-coverage")}
	data, notes, err := ops.LaneHealth(c.Context(), ws, c.Runtime(), in)
	c.Notes(notes)
	if err != nil {
		if delivery.AsError(err).Code == tool.CodeCheckFailed {
			// A failed check prints its report and carries it in the failure envelope.
			return c.FailReporting(err, notes.Text, data)
		}
		return err
	}
	return c.Print(notes.Text, data)
}
