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
	commands.Register(legacy.Command{Name: "validate", Domain: "state",
		New: newValidateApp, Main: convention.Main(newValidateApp)})
}

func newValidateApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "validate",
		Usage: "Validate every WU (or one) with its cross-references: stamps, initiatives, dependencies, lanes",
		Flags: []cli.Flag{
			convention.WU("id", "validate only this WU", false),
			&cli.BoolFlag{Name: "strict", Usage: "warnings fail too"},
			&cli.BoolFlag{Name: "done-only", Usage: "validate only done WUs"},
		},
		ReadOnly:   true,
		Idempotent: true,
		Action:     validate,
	})
}

func validate(c *convention.Call) error {
	ws, err := c.Workspace(ops.ValidateKeys...)
	if err != nil {
		return err
	}
	data, notes, err := ops.Validate(c.Context(), ws, ops.ValidateInput{ID: c.Value("id"),
		Strict: c.Bool("strict"), DoneOnly: c.Bool("done-only")})
	if err != nil {
		if delivery.AsError(err).Code == tool.CodeCheckFailed {
			// A failed check prints its report and carries it in the failure envelope.
			return c.FailReporting(err, notes.Text, data)
		}
		return err
	}
	return c.Print(notes.Text, data)
}
