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
	commands.Register(legacy.Command{Name: "plan:edit", Domain: "initiative",
		New: newPlanEditApp, Main: convention.Main(newPlanEditApp)})
}

func newPlanEditApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "plan:edit",
		Usage: "Replace or append to one section of a plan and commit it",
		Flags: []cli.Flag{
			convention.Keywords(&cli.StringFlag{Name: "id", Usage: "WU-<n> or INIT-<id> whose plan to edit", Required: true}, 0, 0, delivery.PlanIDPattern),
			&cli.StringFlag{Name: "section", Usage: "section heading without '## '", Required: true},
			&cli.StringFlag{Name: "content", Usage: "new body of the section"},
			&cli.StringFlag{Name: "append", Usage: "line(s) added at the end of the section"},
		},
		Rules: []convention.Rule{
			convention.OneOf("content", "append"),
			convention.Exclusive("content", "append"),
		},
		Destructive: true,
		Action:      planEdit,
	})
}

func planEdit(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	id, section := c.String("id"), c.String("section")
	if !delivery.ValidPlanID(id) {
		return c.Failf(tool.CodeValidation, "id %q is neither WU-<n> nor INIT-<id>", id)
	}
	rel := ws.PlanPath(id)
	text, err := delivery.ReadPlan(ws, rel)
	if err != nil {
		return err
	}
	mode := "content"
	var out string
	if c.IsSet("content") {
		out, err = delivery.ReplacePlanSection(text, section, c.String("content"))
	} else {
		mode = "append"
		out, err = delivery.AppendPlanSection(text, section, c.String("append"))
	}
	if err != nil {
		return delivery.Errorf(delivery.CodeOf(err), "%s: %s", rel, err.Error())
	}
	var cm *convention.Commit
	if out != text {
		if err := delivery.WritePlan(ws, rel, out); err != nil {
			return err
		}
		if cm, err = c.Commit(ws, fmt.Sprintf("docs: update %s section in %s plan", section, lower(id)), rel); err != nil {
			return err
		}
	}
	return c.Result(fmt.Sprintf("Updated %s in %s", section, rel),
		planEditData{ID: id, Path: rel, Section: section, Mode: mode, Commit: cm})
}

// planEditData is plan:edit's JSON data.
type planEditData struct {
	ID      string             `json:"id"`
	Path    string             `json:"path"`
	Section string             `json:"section"`
	Mode    string             `json:"mode"`
	Commit  *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d planEditData) Committed() *convention.Commit { return d.Commit }
