package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// PlanPromoteInput is plan:promote's input.
type PlanPromoteInput struct {
	// ID is the WU or initiative whose plan to promote (WU-<n> or INIT-<id>).
	ID string
	// Force skips the completeness check.
	Force bool
}

// PlanPromoteData is plan:promote's JSON data.
type PlanPromoteData struct {
	ID      string  `json:"id"`
	Path    string  `json:"path"`
	Changed bool    `json:"changed"`
	Commit  *Commit `json:"commit"`
}

// PlanPromote is corpus §3.5 plan:promote: a complete plan (unless Force) marked approved
// and committed; an approved plan is left alone (changed false). An incomplete plan is
// VALIDATION listing what is missing. Notes.Headline is the text headline.
func PlanPromote(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in PlanPromoteInput) (PlanPromoteData, Notes, error) {
	var notes Notes
	rel, text, err := readPlanOf(ws, in.ID)
	if err != nil {
		return PlanPromoteData{}, notes, err
	}
	data := PlanPromoteData{ID: in.ID, Path: rel}
	if delivery.PlanApproved(text) {
		notes.Headline = "Already approved"
		return data, notes, nil
	}
	if !in.Force {
		if problems := delivery.PlanCompleteness(text); len(problems) > 0 {
			return PlanPromoteData{}, notes, (&delivery.Error{Code: tool.CodeValidation,
				Message: fmt.Sprintf("%s is not complete", rel)}).WithDetails(map[string]any{"errors": problems})
		}
	}
	out, _ := delivery.PromotePlan(text, delivery.Date(rt.Now()))
	if err := delivery.WritePlan(ws, rel, out); err != nil {
		return PlanPromoteData{}, notes, err
	}
	data.Changed = true
	if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, fmt.Sprintf("docs: promote %s plan to approved", strings.ToLower(in.ID)), rel); err != nil {
		return PlanPromoteData{}, notes, err
	}
	notes.Headline = "Promoted " + rel
	return data, notes, nil
}
