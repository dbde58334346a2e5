package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WUCreateInput is wu:create's input. Empty strings and lists mean "not given"; Type and
// Priority default to the workspace's wu.defaultType and wu.defaultPriority.
type WUCreateInput struct {
	// ID is the requested id; "" draws the next one (corpus §2.5).
	ID                                   string
	Lane, Title, Description             string
	Exposure, Type, Priority, Initiative string
	// Phase is the phase within the initiative; 0 means absent (a given phase is ≥ 1).
	Phase                                                            int
	Acceptance, CodePaths, BlockedBy, TestPathsUnit, TestPathsManual []string
	// NoStrict checks only the structure, not the strict rules.
	NoStrict bool
}

// Check applies wu:create's argv rules that a native input's schema cannot express:
// --phase requires --initiative (a USAGE error).
func (in WUCreateInput) Check() error {
	if in.Phase > 0 && in.Initiative == "" {
		return delivery.Errorf(tool.CodeUsage, "flag --phase requires --initiative")
	}
	return nil
}

// WUCreateData is wu:create's JSON data.
type WUCreateData struct {
	ID         string  `json:"id"`
	Path       string  `json:"path"`
	Lane       string  `json:"lane"`
	Type       string  `json:"type"`
	Priority   string  `json:"priority"`
	Status     string  `json:"status"`
	Initiative *string `json:"initiative"`
	Commit     *Commit `json:"commit"`
}

// WUCreate is corpus §3.1 wu:create: the create step with the workspace's type and
// priority defaults. Notes.Headline is "Created <id>: <title>".
func WUCreate(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WUCreateInput) (WUCreateData, Notes, error) {
	var notes Notes
	if err := in.Check(); err != nil {
		return WUCreateData{}, notes, err
	}
	typ, prio := in.Type, in.Priority
	if typ == "" {
		typ = ws.Config.DefaultType
	}
	if prio == "" {
		prio = ws.Config.DefaultPriority
	}
	w, cm, err := CreateWU(ctx, ws, rt, &notes, CreateWUInput{ID: in.ID, Lane: in.Lane, Title: in.Title,
		Description: in.Description, Type: typ, Priority: prio, Exposure: in.Exposure,
		Initiative: in.Initiative, Phase: in.Phase, Acceptance: in.Acceptance,
		CodePaths: in.CodePaths, BlockedBy: in.BlockedBy, TestsUnit: in.TestPathsUnit,
		Manual: in.TestPathsManual, Strict: !in.NoStrict})
	if err != nil {
		return WUCreateData{}, notes, err
	}
	notes.Headline = fmt.Sprintf("Created %s: %s", w.ID, w.Title)
	return WUCreateData{ID: w.ID, Path: w.Path, Lane: w.Lane, Type: w.Type, Priority: w.Priority,
		Status: w.NormStatus(), Initiative: strPtr(w.Initiative), Commit: cm}, notes, nil
}

// CreateWUInput holds the values of the create step (wu:create, wu:proto), defaults
// already applied.
type CreateWUInput struct {
	// ID is the requested id; "" draws the next one (corpus §2.5).
	ID                                                  string
	Lane, Title, Description, Type, Priority, Exposure  string
	Initiative                                          string
	Phase                                               int
	Acceptance, CodePaths, BlockedBy, TestsUnit, Manual []string
	Labels                                              []string
	Notes                                               string
	Strict                                              bool
}

// CreateWU is the create step of corpus §3.1 wu:create, shared with wu:proto: it checks the
// lane, the id and the initiative, builds the new file in the spec's key order, validates
// it (strictly when asked), then writes the YAML, the initiative's wus, the create event,
// and commits. Nothing is written when a check fails.
func CreateWU(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes, in CreateWUInput) (*delivery.WU, *Commit, error) {
	if len(ws.Config.Lanes) > 0 {
		if _, ok := ws.Config.Lane(in.Lane); !ok {
			return nil, nil, ValidationError("new WU", []string{fmt.Sprintf("lane %q is not defined in workspace.yaml", in.Lane)})
		}
	}
	id := in.ID
	if id == "" {
		next, err := delivery.NextWUID(ws)
		if err != nil {
			return nil, nil, err
		}
		id = next
	} else if exists(ws, ws.WUPath(id)) || delivery.StampExists(ws.Root, id) {
		return nil, nil, delivery.Errorf(tool.CodeAlreadyExists, "%s already exists", id)
	}
	var initiative *delivery.Initiative
	if in.Initiative != "" {
		var err error
		if initiative, err = delivery.ResolveInitiative(ws, in.Initiative); err != nil {
			return nil, nil, err
		}
	}
	w := delivery.NewWU(ws.Config.WUDir, delivery.NewWUInput{ID: id, Title: in.Title, Lane: in.Lane,
		Type: in.Type, Priority: in.Priority, Created: delivery.Date(rt.Now()),
		Description: in.Description, Acceptance: in.Acceptance, CodePaths: in.CodePaths,
		TestsManual: in.Manual, TestsUnit: in.TestsUnit})
	if in.Initiative != "" {
		w.Set("initiative", storage.StrNode(in.Initiative))
	}
	if in.Phase > 0 {
		w.Set("phase", storage.IntNode(int64(in.Phase)))
	}
	if len(in.BlockedBy) > 0 {
		w.Set("blocked_by", storage.StrSeq(in.BlockedBy))
	}
	if in.Exposure != "" {
		w.Set("exposure", storage.StrNode(in.Exposure))
	}
	if len(in.Labels) > 0 {
		w.Set("labels", storage.StrSeq(in.Labels))
	}
	if in.Notes != "" {
		w.Set("notes", storage.StrNode(in.Notes))
	}
	w.Refresh()
	violations := delivery.ValidateStructure(w)
	if in.Strict {
		violations = delivery.ValidateStrict(w, ws.Config.MinDescriptionLength)
	}
	if len(violations) > 0 {
		return nil, nil, ValidationError(id, violations)
	}
	for _, dep := range in.BlockedBy {
		if !exists(ws, ws.WUPath(dep)) {
			notes.Warn("blocked_by %s does not exist", dep)
		}
	}
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return nil, nil, err
	}
	paths := []string{w.Path}
	if initiative != nil {
		if _, err := addToInitiative(ws, initiative, id); err != nil {
			return nil, nil, err
		}
		paths = append(paths, initiative.Path)
	}
	if err := AppendEvent(ws, rt, delivery.Event{Type: delivery.EventCreate, WUID: id, Lane: in.Lane, Title: in.Title}); err != nil {
		return nil, nil, err
	}
	paths = append(paths, delivery.EventsFile)
	cm, err := CommitPaths(ctx, ws, rt, notes, fmt.Sprintf("docs: create %s for %s", strings.ToLower(id), delivery.Title60(in.Title)), paths...)
	if err != nil {
		return nil, nil, err
	}
	return w, cm, nil
}

// addToInitiative adds id to the initiative's wus list (no duplicate) and writes it,
// reporting whether the file changed.
func addToInitiative(ws *delivery.Workspace, in *delivery.Initiative, id string) (bool, error) {
	for _, have := range in.WUs {
		if have == id {
			return false, nil
		}
	}
	in.Set("wus", storage.StrSeq(append(append([]string(nil), in.WUs...), id)))
	in.Refresh()
	return true, delivery.WriteInitiative(ws.Root, in)
}
