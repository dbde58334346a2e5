package ops

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WUEditInput is wu:edit's input. A nil pointer or an empty list is a field that is not
// edited; a given "" is an edit (to the empty value).
type WUEditInput struct {
	ID                string
	Title             *string
	Description       *string
	Acceptance        []string
	ReplaceAcceptance bool
	CodePaths         []string
	ReplaceCodePaths  bool
	Notes             *string
	ReplaceNotes      bool
	Lane              *string
	Priority          *string
	Type              *string
	Exposure          *string
	Initiative        *string
	Phase             *int64
	BlockedBy         []string
}

// Check is the command's "nothing to edit" rule (USAGE): at least one editing field.
func (in WUEditInput) Check() error {
	if in.Title == nil && in.Description == nil && len(in.Acceptance) == 0 && len(in.CodePaths) == 0 &&
		in.Notes == nil && in.Lane == nil && in.Priority == nil && in.Type == nil && in.Exposure == nil &&
		in.Initiative == nil && in.Phase == nil && len(in.BlockedBy) == 0 {
		return delivery.Errorf(tool.CodeUsage, "nothing to edit")
	}
	return nil
}

// WUEditData is wu:edit's JSON data: the fields that changed, in flag order.
type WUEditData struct {
	ID      string   `json:"id"`
	Changed []string `json:"changed"`
	Commit  *Commit  `json:"commit"`
}

// WUEdit is corpus §3.1 wu:edit: each given field set in flag order (lists append without
// duplicates unless replaced, blocked_by always replaces, notes append on a new line
// unless replaced), refused for a done or closed WU (INVALID_TRANSITION), for a lane
// change while in_progress or blocked and for an acceptance map appended to (VALIDATION),
// and for a result that fails the structural rules (VALIDATION). A new initiative is
// resolved first (NOT_FOUND); moving the WU updates both initiatives' wus. Nothing
// changed writes nothing. One commit. Notes.Headline is "Edited <id>".
func WUEdit(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WUEditInput) (WUEditData, Notes, error) {
	var notes Notes
	if err := in.Check(); err != nil {
		return WUEditData{}, notes, err
	}
	w, err := delivery.ReadWU(ws, in.ID)
	if err != nil {
		return WUEditData{}, notes, err
	}
	if s := w.NormStatus(); s == delivery.StatusDone || s == delivery.StatusClosed {
		return WUEditData{}, notes, delivery.Errorf(tool.CodeInvalidTransition, "%s is %s: it cannot be edited", w.ID, s)
	}
	data := WUEditData{ID: w.ID, Changed: []string{}}
	setStr := func(field, old string, val *string) {
		if val != nil && *val != old {
			w.Set(field, storage.StrNode(*val))
			data.Changed = append(data.Changed, field)
		}
	}
	setList := func(field string, old, given []string, replace bool) {
		if len(given) == 0 {
			return
		}
		next := slices.Clone(given)
		if !replace {
			next = slices.Clone(old)
			for _, v := range given {
				if !slices.Contains(next, v) {
					next = append(next, v)
				}
			}
		}
		if !slices.Equal(next, old) || w.Get(field) == nil {
			w.Set(field, storage.StrSeq(next))
			data.Changed = append(data.Changed, field)
		}
	}
	setStr("title", w.Title, in.Title)
	setStr("description", w.Description, in.Description)
	if len(in.Acceptance) > 0 && len(w.AcceptanceGroups) > 0 && !in.ReplaceAcceptance {
		return WUEditData{}, notes, ValidationError(w.ID, []string{"acceptance uses the map form: use --replace-acceptance"})
	}
	setList("acceptance", w.Acceptance, in.Acceptance, in.ReplaceAcceptance)
	setList("code_paths", w.CodePaths, in.CodePaths, in.ReplaceCodePaths)
	if in.Notes != nil {
		note := *in.Notes
		if !in.ReplaceNotes && w.Notes != "" {
			note = w.Notes + "\n" + note
		}
		setStr("notes", w.Notes, &note)
	}
	if in.Lane != nil && *in.Lane != w.Lane {
		if s := w.NormStatus(); s == delivery.StatusInProgress || s == delivery.StatusBlocked {
			return WUEditData{}, notes, ValidationError(w.ID, []string{fmt.Sprintf("the lane of %s cannot change while it is %s", w.ID, s)})
		}
		setStr("lane", w.Lane, in.Lane)
	}
	setStr("priority", w.Priority, in.Priority)
	setStr("type", w.Type, in.Type)
	setStr("exposure", w.Exposure, in.Exposure)
	var oldInit, newInit *delivery.Initiative
	if in.Initiative != nil {
		if newInit, err = delivery.ResolveInitiative(ws, *in.Initiative); err != nil {
			return WUEditData{}, notes, err
		}
		if w.Initiative != "" {
			oldInit, _ = delivery.ResolveInitiative(ws, w.Initiative) // a dangling old link is just dropped
		}
		setStr("initiative", w.Initiative, in.Initiative)
	}
	if in.Phase != nil {
		if p := int(*in.Phase); p != w.Phase || w.Get("phase") == nil {
			w.Set("phase", storage.IntNode(int64(p)))
			data.Changed = append(data.Changed, "phase")
		}
	}
	setList("blocked_by", w.BlockedBy, in.BlockedBy, true)
	w.Refresh()
	if v := delivery.ValidateStructure(w); len(v) > 0 {
		return WUEditData{}, notes, ValidationError(w.ID, v)
	}
	notes.Headline = "Edited " + w.ID
	if len(data.Changed) == 0 && (newInit == nil || slices.Contains(newInit.WUs, w.ID)) {
		return data, notes, nil // nothing changed: nothing written
	}
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return WUEditData{}, notes, err
	}
	paths := []string{w.Path}
	if oldInit != nil && (newInit == nil || oldInit.ID != newInit.ID) {
		if _, err := removeFromInitiative(ws, oldInit, w.ID); err != nil {
			return WUEditData{}, notes, err
		}
		paths = append(paths, oldInit.Path)
	}
	if newInit != nil {
		if _, err := addToInitiative(ws, newInit, w.ID); err != nil {
			return WUEditData{}, notes, err
		}
		paths = append(paths, newInit.Path)
	}
	if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, fmt.Sprintf("docs: edit %s spec", strings.ToLower(w.ID)), paths...); err != nil {
		return WUEditData{}, notes, err
	}
	return data, notes, nil
}
