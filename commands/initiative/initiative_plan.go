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
	in, err := resolve(ws, c.String("initiative"))
	if err != nil {
		return err
	}
	var rel, file string
	created := false
	var paths []string
	if c.Bool("create") {
		rel = ws.PlanPath(in.ID)
		file = path.Base(rel)
		if _, err := os.Stat(ws.Abs(rel)); errors.Is(err, fs.ErrNotExist) {
			if err := delivery.WritePlan(ws, rel, delivery.PlanTemplate(in.ID, in.Title, delivery.Date(c.Runtime().Now()))); err != nil {
				return err
			}
			created = true
			paths = append(paths, rel)
		} else if err != nil {
			return delivery.Errorf(tool.CodeIOError, "stat %s: %w", rel, err)
		}
	} else {
		if rel, file, err = delivery.ResolvePlanRef(ws, c.String("plan")); err != nil {
			return err
		}
		if _, err := delivery.ReadPlan(ws, rel); err != nil {
			return err
		}
	}
	uri := delivery.PlanURI(file)
	if in.RelatedPlan != uri {
		if in.RelatedPlan != "" {
			c.Warn("%s: replacing related_plan %s", in.ID, in.RelatedPlan)
		}
		in.Set("related_plan", delivery.StrNode(uri))
		if err := delivery.WriteInitiative(ws.Root, in); err != nil {
			return err
		}
		paths = append(paths, in.Path)
	}
	var cm *convention.Commit
	if len(paths) > 0 {
		if cm, err = c.Commit(ws, fmt.Sprintf("docs: link plan %s to %s", file, lower(in.ID)), paths...); err != nil {
			return err
		}
	}
	return c.Result(fmt.Sprintf("Linked %s to %s", uri, in.ID),
		initiativePlanData{Initiative: in.ID, PlanURI: uri, PlanPath: rel, Created: created, Commit: cm})
}

// initiativePlanData is initiative:plan's JSON data.
type initiativePlanData struct {
	Initiative string             `json:"initiative"`
	PlanURI    string             `json:"plan_uri"`
	PlanPath   string             `json:"plan_path"`
	Created    bool               `json:"created"`
	Commit     *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d initiativePlanData) Committed() *convention.Commit { return d.Commit }
