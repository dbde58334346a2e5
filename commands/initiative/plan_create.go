package initiative

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
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
	id, title := c.String("id"), c.String("title")
	if _, err := resolvePlanTarget(ws, id); err != nil {
		return err
	}
	rel := ws.PlanPath(id)
	if _, err := os.Stat(ws.Abs(rel)); err == nil {
		return c.Failf(tool.CodeAlreadyExists, "plan %s already exists", rel)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return delivery.Errorf(tool.CodeIOError, "stat %s: %w", rel, err)
	}
	if err := delivery.WritePlan(ws, rel, delivery.PlanTemplate(id, title, delivery.Date(c.Runtime().Now()))); err != nil {
		return err
	}
	cm, err := c.Commit(ws, fmt.Sprintf("docs: create plan for %s - %s", lower(id), title), rel)
	if err != nil {
		return err
	}
	return c.Result("Created plan "+rel,
		planCreateData{ID: id, Path: rel, URI: delivery.PlanURI(path.Base(rel)), Commit: cm})
}

// planCreateData is plan:create's JSON data.
type planCreateData struct {
	ID     string             `json:"id"`
	Path   string             `json:"path"`
	URI    string             `json:"uri"`
	Commit *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d planCreateData) Committed() *convention.Commit { return d.Commit }
