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
	in := ops.PlanEditInput{ID: c.String("id"), Section: c.String("section")}
	if c.IsSet("content") {
		content := c.String("content")
		in.Content = &content
	} else {
		add := c.String("append")
		in.Append = &add
	}
	data, notes, err := ops.PlanEdit(c.Context(), ws, c.Runtime(), in)
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
