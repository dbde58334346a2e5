package initiative

import (
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
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
	id := c.String("id")
	target, err := resolvePlanTarget(ws, id)
	if err != nil {
		return err
	}
	rel, file, err := delivery.ResolvePlanRef(ws, c.String("plan"))
	if err != nil {
		return err
	}
	if _, err := delivery.ReadPlan(ws, rel); err != nil {
		return err
	}
	uri := delivery.PlanURI(file)
	data := planLinkData{ID: id, URI: uri}
	var written string
	if w := target.wu; w != nil {
		data.Target = "wu"
		if w.Plan != uri {
			w.Set("plan", delivery.StrNode(uri))
			data.Changed = true
		}
		if !slices.Contains(w.SpecRefs, uri) {
			appendItems(delivery.Root(w.Doc), "spec_refs", []string{uri}, true)
			data.Changed = true
		}
		if data.Changed {
			if err := delivery.WriteWU(ws.Root, w); err != nil {
				return err
			}
			written = w.Path
		}
	} else {
		in := target.initiative
		data.Target = "initiative"
		if in.RelatedPlan != uri {
			in.Set("related_plan", delivery.StrNode(uri))
			data.Changed = true
			if err := delivery.WriteInitiative(ws.Root, in); err != nil {
				return err
			}
			written = in.Path
		}
	}
	if written != "" {
		if data.Commit, err = c.Commit(ws, fmt.Sprintf("docs: link plan %s to %s", file, lower(id)), written); err != nil {
			return err
		}
	}
	return c.Result(fmt.Sprintf("Linked %s to %s", uri, id), data)
}

// planLinkData is plan:link's JSON data; target is wu or initiative.
type planLinkData struct {
	ID      string             `json:"id"`
	URI     string             `json:"uri"`
	Target  string             `json:"target"`
	Changed bool               `json:"changed"`
	Commit  *convention.Commit `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d planLinkData) Committed() *convention.Commit { return d.Commit }
