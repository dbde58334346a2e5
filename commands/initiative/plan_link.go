package initiative

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "plan:link", Domain: "initiative",
		New: newPlanLinkApp, Main: convention.Main(newPlanLinkApp)})
}

func newPlanLinkApp() *cli.App {
	return convention.App(convention.Spec{
		Name:       "plan:link",
		Usage:      "Link an existing plan to a WU (plan, spec_refs) or initiative (related_plan)",
		Idempotent: true,
		Flags: []cli.Flag{
			convention.Keywords(&cli.StringFlag{Name: "id", Usage: "WU-<n> or INIT-<id>", Required: true}, 0, 0, delivery.PlanIDPattern),
			convention.NonEmpty(&cli.StringFlag{Name: "plan", Usage: "plan path inside plansDir or lumenflow://plans/ URI", Required: true}),
		},
		// Replaces the plan a WU or initiative already links.
		Destructive: true,
		Action:      planLink,
	})
}

func planLink(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.PlanLink(c.Context(), ws, c.Runtime(), ops.PlanLinkInput{ID: c.String("id"), Plan: c.String("plan")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
