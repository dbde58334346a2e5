package initiative

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
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
	id := c.String("id")
	if !delivery.ValidPlanID(id) {
		return c.Failf(tool.CodeValidation, "id %q is neither WU-<n> nor INIT-<id>", id)
	}
	rel := ws.PlanPath(id)
	text, err := delivery.ReadPlan(ws, rel)
	if err != nil {
		return err
	}
	data := planPromoteData{ID: id, Path: rel}
	if delivery.PlanApproved(text) {
		return c.Result("Already approved", data)
	}
	if !c.Bool("force") {
		if problems := delivery.PlanCompleteness(text); len(problems) > 0 {
			return c.Fail(tool.CodeValidation, fmt.Sprintf("%s is not complete", rel), map[string]any{"errors": problems})
		}
	}
	out, _ := delivery.PromotePlan(text, delivery.Date(c.Runtime().Now()))
	if err := delivery.WritePlan(ws, rel, out); err != nil {
		return err
	}
	data.Changed = true
	if data.Commit, err = c.Commit(ws, fmt.Sprintf("docs: promote %s plan to approved", lower(id)), rel); err != nil {
		return err
	}
	return c.Result("Promoted "+rel, data)
}

// planPromoteData is plan:promote's JSON data.
type planPromoteData struct {
	ID      string             `json:"id"`
	Path    string             `json:"path"`
	Changed bool               `json:"changed"`
	Commit  *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d planPromoteData) Committed() *convention.Commit { return d.Commit }
