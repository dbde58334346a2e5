package ops

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
)

// PlanLinkInput is plan:link's input.
type PlanLinkInput struct {
	// ID is the WU or initiative to link the plan to (WU-<n> or INIT-<id>; it must exist).
	ID string
	// Plan is the plan: a path inside plansDir or a lumenflow://plans/ URI.
	Plan string
}

// PlanLinkData is plan:link's JSON data; Target is wu or initiative.
type PlanLinkData struct {
	ID      string  `json:"id"`
	URI     string  `json:"uri"`
	Target  string  `json:"target"`
	Changed bool    `json:"changed"`
	Commit  *Commit `json:"commit"`
}

// PlanLink is corpus §3.5 plan:link: an existing plan linked to a WU (its plan, and its
// spec_refs) or to an initiative (related_plan), replacing the plan linked before, and
// the changed spec committed; linking again changes nothing. Notes.Headline is the text
// headline.
func PlanLink(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in PlanLinkInput) (PlanLinkData, Notes, error) {
	var notes Notes
	target, err := ResolvePlanTarget(ws, in.ID)
	if err != nil {
		return PlanLinkData{}, notes, err
	}
	rel, file, err := delivery.ResolvePlanRef(ws, in.Plan)
	if err != nil {
		return PlanLinkData{}, notes, err
	}
	if _, err := delivery.ReadPlan(ws, rel); err != nil {
		return PlanLinkData{}, notes, err
	}
	uri := delivery.PlanURI(file)
	data := PlanLinkData{ID: in.ID, URI: uri}
	var written string
	if w := target.WU; w != nil {
		data.Target = "wu"
		if w.Plan != uri {
			w.Set("plan", storage.StrNode(uri))
			data.Changed = true
		}
		if !slices.Contains(w.SpecRefs, uri) {
			AppendItems(storage.Root(w.Doc), "spec_refs", []string{uri}, true)
			data.Changed = true
		}
		if data.Changed {
			if err := delivery.WriteWU(ws.Root, w); err != nil {
				return PlanLinkData{}, notes, err
			}
			written = w.Path
		}
	} else {
		ini := target.Initiative
		data.Target = "initiative"
		if ini.RelatedPlan != uri {
			ini.Set("related_plan", storage.StrNode(uri))
			data.Changed = true
			if err := delivery.WriteInitiative(ws.Root, ini); err != nil {
				return PlanLinkData{}, notes, err
			}
			written = ini.Path
		}
	}
	if written != "" {
		if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, fmt.Sprintf("docs: link plan %s to %s", file, strings.ToLower(in.ID)), written); err != nil {
			return PlanLinkData{}, notes, err
		}
	}
	notes.Headline = fmt.Sprintf("Linked %s to %s", uri, in.ID)
	return data, notes, nil
}
