package ops

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// InitiativePlanInput is initiative:plan's input: exactly one of Plan and Create.
type InitiativePlanInput struct {
	// Initiative is the initiative's id or slug.
	Initiative string
	// Plan is the plan to link: a path inside plansDir or a lumenflow://plans/ URI.
	Plan string
	// Create makes <plansDir>/<id>-plan.md from the template (unless it exists) and
	// links it.
	Create bool
}

// InitiativePlanData is initiative:plan's JSON data.
type InitiativePlanData struct {
	Initiative string  `json:"initiative"`
	PlanURI    string  `json:"plan_uri"`
	PlanPath   string  `json:"plan_path"`
	Created    bool    `json:"created"`
	Commit     *Commit `json:"commit"`
}

// InitiativePlan is corpus §3.5 initiative:plan: a plan linked to an initiative as its
// related_plan (with a warning when it replaces another), made first from the template
// with Create, and what changed committed; linking the plan already linked changes
// nothing. Notes.Headline is the text headline.
func InitiativePlan(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in InitiativePlanInput) (InitiativePlanData, Notes, error) {
	var notes Notes
	ini, err := delivery.ResolveInitiative(ws, in.Initiative)
	if err != nil {
		return InitiativePlanData{}, notes, err
	}
	var rel, file string
	created := false
	var paths []string
	if in.Create {
		rel = ws.PlanPath(ini.ID)
		file = path.Base(rel)
		if _, err := os.Stat(ws.Abs(rel)); errors.Is(err, fs.ErrNotExist) {
			if err := delivery.WritePlan(ws, rel, delivery.PlanTemplate(ini.ID, ini.Title, delivery.Date(rt.Now()))); err != nil {
				return InitiativePlanData{}, notes, err
			}
			created = true
			paths = append(paths, rel)
		} else if err != nil {
			return InitiativePlanData{}, notes, delivery.Errorf(tool.CodeIOError, "stat %s: %w", rel, err)
		}
	} else {
		if rel, file, err = delivery.ResolvePlanRef(ws, in.Plan); err != nil {
			return InitiativePlanData{}, notes, err
		}
		if _, err := delivery.ReadPlan(ws, rel); err != nil {
			return InitiativePlanData{}, notes, err
		}
	}
	uri := delivery.PlanURI(file)
	if ini.RelatedPlan != uri {
		if ini.RelatedPlan != "" {
			notes.Warn("%s: replacing related_plan %s", ini.ID, ini.RelatedPlan)
		}
		ini.Set("related_plan", storage.StrNode(uri))
		if err := delivery.WriteInitiative(ws.Root, ini); err != nil {
			return InitiativePlanData{}, notes, err
		}
		paths = append(paths, ini.Path)
	}
	data := InitiativePlanData{Initiative: ini.ID, PlanURI: uri, PlanPath: rel, Created: created}
	if len(paths) > 0 {
		if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, fmt.Sprintf("docs: link plan %s to %s", file, strings.ToLower(ini.ID)), paths...); err != nil {
			return InitiativePlanData{}, notes, err
		}
	}
	notes.Headline = fmt.Sprintf("Linked %s to %s", uri, ini.ID)
	return data, notes, nil
}
