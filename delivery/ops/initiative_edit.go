package ops

import (
	"context"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// InitiativeEditInput is initiative:edit's input, its values already checked (a valid
// status, phase status and target date). A nil pointer is a flag that was not given; a
// given "" is a value (an empty title or description is written, an empty note appended).
type InitiativeEditInput struct {
	// Ref is the initiative id or slug (--id).
	Ref                              string
	Title, Status, Description, Note *string
	AddPhases                        []string
	// PhaseID and PhaseStatus go together: the phase to update and its new status.
	PhaseID           *int
	PhaseStatus       *string
	AddSuccessMetrics []string
	TargetDate        *string
	// BlockedBy and BlockedReason set the block; BlockedReason requires BlockedBy.
	BlockedBy, BlockedReason *string
	// Unblock removes blocked_by and blocked_reason; exclusive with BlockedBy.
	Unblock bool
}

// Check applies initiative:edit's argv rules, in the command's order (USAGE): at least one
// change, --phase-id and --phase-status together, --blocked-reason only with --blocked-by,
// and --unblock not with --blocked-by.
func (in InitiativeEditInput) Check() error {
	if in.Title == nil && in.Status == nil && in.Description == nil && in.Note == nil &&
		len(in.AddPhases) == 0 && in.PhaseID == nil && len(in.AddSuccessMetrics) == 0 &&
		in.TargetDate == nil && in.BlockedBy == nil && !in.Unblock {
		return delivery.Errorf(tool.CodeUsage, "one of --title, --status, --description, --notes, --add-phase, --phase-id, --add-success-metric, --target-date, --blocked-by, --unblock is required")
	}
	switch {
	case in.PhaseID != nil && in.PhaseStatus == nil:
		return delivery.Errorf(tool.CodeUsage, "flag --phase-id requires --phase-status")
	case in.PhaseStatus != nil && in.PhaseID == nil:
		return delivery.Errorf(tool.CodeUsage, "flag --phase-status requires --phase-id")
	case in.BlockedReason != nil && in.BlockedBy == nil:
		return delivery.Errorf(tool.CodeUsage, "flag --blocked-reason requires --blocked-by")
	case in.Unblock && in.BlockedBy != nil:
		return delivery.Errorf(tool.CodeUsage, "flags --unblock and --blocked-by cannot be used together")
	}
	return nil
}

// InitiativeEditData is initiative:edit's JSON data: changed lists the keys that changed.
type InitiativeEditData struct {
	ID      string   `json:"id"`
	Changed []string `json:"changed"`
	Commit  *Commit  `json:"commit"`
}

// InitiativeEdit is corpus §3.5 initiative:edit: it applies each given change to the
// initiative's YAML (comments and unknown keys kept), lists the keys that actually
// changed, and writes and commits the file only when one did. An unknown phase id is
// NOT_FOUND and nothing is written. Notes.Headline is "Edited <id>".
func InitiativeEdit(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in InitiativeEditInput) (InitiativeEditData, Notes, error) {
	var notes Notes
	if err := in.Check(); err != nil {
		return InitiativeEditData{}, notes, err
	}
	ini, err := delivery.ResolveInitiative(ws, in.Ref)
	if err != nil {
		return InitiativeEditData{}, notes, err
	}
	root := storage.Root(ini.Doc)
	changed := []string{}
	setStr := func(key, v string) {
		if cur := storage.MapGet(root, key); cur != nil && cur.Kind == yaml.ScalarNode && cur.Value == v {
			return
		}
		ini.Set(key, storage.StrNode(v))
		changed = append(changed, key)
	}
	if in.Title != nil {
		setStr("title", *in.Title)
	}
	if in.Status != nil {
		setStr("status", *in.Status)
	}
	if in.Description != nil {
		setStr("description", *in.Description)
	}
	if in.Note != nil {
		AppendItems(root, "notes", []string{*in.Note}, false)
		changed = append(changed, "notes")
	}
	phasesChanged := false
	if len(in.AddPhases) > 0 {
		next := 0
		for _, p := range ini.Phases {
			next = max(next, p.ID)
		}
		seq := SeqOf(root, "phases")
		for _, title := range in.AddPhases {
			next++
			seq.Content = append(seq.Content, PhaseNode(next, title, "pending"))
		}
		phasesChanged = true
	}
	if in.PhaseID != nil {
		id := *in.PhaseID
		seq := storage.MapGet(root, "phases")
		var target *yaml.Node
		for i, p := range ini.Phases {
			if p.ID == id && seq != nil {
				target = seq.Content[i]
				break
			}
		}
		if target == nil {
			return InitiativeEditData{}, notes, delivery.Errorf(tool.CodeNotFound, "phase %d not found in %s", id, ini.ID)
		}
		if cur := storage.MapGet(target, "status"); cur == nil || cur.Value != *in.PhaseStatus {
			storage.MapSet(target, "status", storage.StrNode(*in.PhaseStatus))
			phasesChanged = true
		}
	}
	if phasesChanged {
		changed = append(changed, "phases")
	}
	if len(in.AddSuccessMetrics) > 0 && AppendItems(root, "success_metrics", in.AddSuccessMetrics, true) {
		changed = append(changed, "success_metrics")
	}
	if in.TargetDate != nil {
		if cur := storage.MapGet(root, "target_date"); cur == nil || cur.Value != *in.TargetDate {
			ini.Set("target_date", storage.DateNode(*in.TargetDate))
			changed = append(changed, "target_date")
		}
	}
	if in.BlockedBy != nil {
		setStr("blocked_by", *in.BlockedBy)
		if in.BlockedReason != nil {
			setStr("blocked_reason", *in.BlockedReason)
		}
	}
	if in.Unblock {
		for _, k := range []string{"blocked_by", "blocked_reason"} {
			if ini.Delete(k) {
				changed = append(changed, k)
			}
		}
	}
	var cm *Commit
	if len(changed) > 0 {
		if err := delivery.WriteInitiative(ws.Root, ini); err != nil {
			return InitiativeEditData{}, notes, err
		}
		if cm, err = CommitPaths(ctx, ws, rt, &notes, "docs: edit "+strings.ToLower(ini.ID), ini.Path); err != nil {
			return InitiativeEditData{}, notes, err
		}
	}
	notes.Headline = fmt.Sprintf("Edited %s", ini.ID)
	return InitiativeEditData{ID: ini.ID, Changed: changed, Commit: cm}, notes, nil
}
