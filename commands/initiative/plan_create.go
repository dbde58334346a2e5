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
	commands.Register(legacy.Command{Name: "plan:create", Domain: "initiative",
		New: newPlanCreateApp, Main: convention.Main(newPlanCreateApp)})
}

func newPlanCreateApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "plan:create",
		Usage: "Create the plan file of a WU or initiative from the template and commit it",
		Flags: []cli.Flag{
			convention.Keywords(&cli.StringFlag{Name: "id", Usage: "WU-<n> or INIT-<id> (must exist)", Required: true}, 0, 0, delivery.PlanIDPattern),
			&cli.StringFlag{Name: "title", Usage: "plan title", Required: true},
		},
		Action: planCreate,
	})
}

func planCreate(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.PlanCreate(c.Context(), ws, c.Runtime(), ops.PlanCreateInput{ID: c.String("id"), Title: c.String("title")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
