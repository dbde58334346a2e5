package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// PlanEditInput is plan:edit's input: exactly one of Content and Append is set (the shell
// has checked it).
type PlanEditInput struct {
	// ID is the WU or initiative whose plan to edit (WU-<n> or INIT-<id>).
	ID string
	// Section is the section heading without "## ".
	Section string
	// Content replaces the section's body; Append adds line(s) at its end.
	Content, Append *string
}

// PlanEditData is plan:edit's JSON data.
type PlanEditData struct {
	ID      string  `json:"id"`
	Path    string  `json:"path"`
	Section string  `json:"section"`
	Mode    string  `json:"mode"`
	Commit  *Commit `json:"commit"`
}

// PlanEdit is corpus §3.5 plan:edit: one section of a plan replaced or appended to, and the
// plan committed when it changed (an edit that changes nothing commits nothing).
// Notes.Headline is the text headline.
func PlanEdit(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in PlanEditInput) (PlanEditData, Notes, error) {
	var notes Notes
	rel, text, err := readPlanOf(ws, in.ID)
	if err != nil {
		return PlanEditData{}, notes, err
	}
	mode := "content"
	var out string
	if in.Content != nil {
		out, err = delivery.ReplacePlanSection(text, in.Section, *in.Content)
	} else {
		mode = "append"
		var add string
		if in.Append != nil {
			add = *in.Append
		}
		out, err = delivery.AppendPlanSection(text, in.Section, add)
	}
	if err != nil {
		return PlanEditData{}, notes, delivery.Errorf(delivery.CodeOf(err), "%s: %s", rel, err.Error())
	}
	var cm *Commit
	if out != text {
		if err := delivery.WritePlan(ws, rel, out); err != nil {
			return PlanEditData{}, notes, err
		}
		if cm, err = CommitPaths(ctx, ws, rt, &notes, fmt.Sprintf("docs: update %s section in %s plan", in.Section, strings.ToLower(in.ID)), rel); err != nil {
			return PlanEditData{}, notes, err
		}
	}
	notes.Headline = fmt.Sprintf("Updated %s in %s", in.Section, rel)
	return PlanEditData{ID: in.ID, Path: rel, Section: in.Section, Mode: mode, Commit: cm}, notes, nil
}
