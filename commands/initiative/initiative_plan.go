package initiative

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "initiative:plan",
		New: newInitiativePlanApp, Main: convention.Main(newInitiativePlanApp)})
}

func newInitiativePlanApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "initiative:plan",
		Usage: "Link a plan to an initiative, creating it from the template with --create",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "initiative", Usage: "initiative id or slug", Required: true},
			&cli.StringFlag{Name: "plan", Usage: "plan path inside plansDir or lumenflow://plans/ URI"},
			&cli.BoolFlag{Name: "create", Usage: "create <plansDir>/<id>-plan.md from the template"},
		},
		Rules: []convention.Rule{
			convention.OneOf("plan", "create"),
			convention.Exclusive("plan", "create"),
		},
		// Replaces the plan the initiative already links (with a warning).
		Destructive: true,
		Action:      initiativePlan,
	})
}

func initiativePlan(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.InitiativePlan(c.Context(), ws, c.Runtime(), ops.InitiativePlanInput{
		Initiative: c.String("initiative"), Plan: c.String("plan"), Create: c.Bool("create"),
	})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
