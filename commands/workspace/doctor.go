package workspace

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
	commands.Register(legacy.Command{Name: "doctor", Domain: "workspace",
		New: newDoctorApp, Main: convention.Main(newDoctorApp)})
}

func newDoctorApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "doctor",
		Usage:    "Check the workspace setup: config, directories, git, lanes, locks, gates, .gitignore, event log (never writes)",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "deep", Usage: "also run the validate rules on every WU"},
		},
		Action: doctor,
	})
}

func doctor(c *convention.Call) error {
	ws, wsErr := c.Workspace()
	dir := ""
	if ws == nil {
		var err error
		if dir, err = c.Dir(); err != nil {
			return err
		}
	}
	d, notes, err := ops.Doctor(c.Context(), ws, wsErr, c.Runtime(), ops.DoctorInput{Dir: dir, Deep: c.Bool("deep")})
	c.Notes(notes)
	if err != nil {
		if delivery.AsError(err).Code == tool.CodeCheckFailed {
			return c.FailReporting(err, notes.Text, d) // a failed check reports what it found
		}
		return err
	}
	return c.Print(notes.Text, d)
}
