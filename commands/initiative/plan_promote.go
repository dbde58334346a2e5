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
	commands.Register(legacy.Command{Name: "plan:promote", Domain: "initiative",
		New: newPlanPromoteApp, Main: convention.Main(newPlanPromoteApp)})
}

func newPlanPromoteApp() *cli.App {
	return convention.App(convention.Spec{
		Name:       "plan:promote",
		Usage:      "Mark a complete plan as approved and commit it",
		Idempotent: true,
		Flags: []cli.Flag{
			convention.Keywords(&cli.StringFlag{Name: "id", Usage: "WU-<n> or INIT-<id> whose plan to promote", Required: true}, 0, 0, delivery.PlanIDPattern),
			&cli.BoolFlag{Name: "force", Usage: "skip the completeness check"},
		},
		Action: planPromote,
	})
}

func planPromote(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.PlanPromote(c.Context(), ws, c.Runtime(), ops.PlanPromoteInput{ID: c.String("id"), Force: c.Bool("force")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
