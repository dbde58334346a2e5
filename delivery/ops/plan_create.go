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
	"github.com/cmdbridge/cmdbridge/tool"
)

// PlanCreateInput is plan:create's input.
type PlanCreateInput struct {
	// ID is the WU or initiative the plan is for (WU-<n> or INIT-<id>; it must exist).
	ID string
	// Title is the plan's title.
	Title string
}

// PlanCreateData is plan:create's JSON data.
type PlanCreateData struct {
	ID     string  `json:"id"`
	Path   string  `json:"path"`
	URI    string  `json:"uri"`
	Commit *Commit `json:"commit"`
}

// PlanCreate is corpus §3.5 plan:create: the plan file of an existing WU or initiative
// written from the template (ALREADY_EXISTS when it is there) and committed. Notes.Headline
// is the text headline.
func PlanCreate(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in PlanCreateInput) (PlanCreateData, Notes, error) {
	var notes Notes
	if _, err := ResolvePlanTarget(ws, in.ID); err != nil {
		return PlanCreateData{}, notes, err
	}
	rel := ws.PlanPath(in.ID)
	if _, err := os.Stat(ws.Abs(rel)); err == nil {
		return PlanCreateData{}, notes, delivery.Errorf(tool.CodeAlreadyExists, "plan %s already exists", rel)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return PlanCreateData{}, notes, delivery.Errorf(tool.CodeIOError, "stat %s: %w", rel, err)
	}
	if err := delivery.WritePlan(ws, rel, delivery.PlanTemplate(in.ID, in.Title, delivery.Date(rt.Now()))); err != nil {
		return PlanCreateData{}, notes, err
	}
	cm, err := CommitPaths(ctx, ws, rt, &notes, fmt.Sprintf("docs: create plan for %s - %s", strings.ToLower(in.ID), in.Title), rel)
	if err != nil {
		return PlanCreateData{}, notes, err
	}
	notes.Headline = "Created plan " + rel
	return PlanCreateData{ID: in.ID, Path: rel, URI: delivery.PlanURI(path.Base(rel)), Commit: cm}, notes, nil
}
