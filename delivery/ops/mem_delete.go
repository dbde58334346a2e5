package ops

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// MemDeleteInput is mem:delete's input: the selectors (at least one given, the shells'
// rule check) and DryRun. Tag "" selects nothing; OlderThan counts only when ByAge.
type MemDeleteInput struct {
	IDs       []string
	Tag       string
	OlderThan time.Duration
	ByAge     bool
	DryRun    bool
}

// Check rejects an id that is not a memory id (USAGE), before the workspace is opened.
func (in MemDeleteInput) Check() error {
	for _, id := range in.IDs {
		if !delivery.ValidMemoryID(id) {
			return delivery.Errorf(tool.CodeUsage, "invalid value %q for --id: expected memory id like mem-1a2b", id)
		}
	}
	return nil
}

// MemDeleteData is mem:delete's JSON data.
type MemDeleteData struct {
	Deleted []string `json:"deleted"`
	Skipped []string `json:"skipped"`
	DryRun  bool     `json:"dry_run"`
}

// MemDelete is corpus §3.4 mem:delete: every node selected by an id, the tag or its age (a
// union) soft-deleted by an appended version with metadata.status deleted, deleted_at and
// updated_at; already-deleted nodes are skipped. An id that does not exist is NOT_FOUND,
// and then nothing is deleted. DryRun writes nothing. Notes.Headline is
// "Deleted <k> node(s)".
func MemDelete(_ context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in MemDeleteInput) (MemDeleteData, Notes, error) {
	var notes Notes
	if err := in.Check(); err != nil {
		return MemDeleteData{}, notes, err
	}
	m, err := loadMemory(ws, &notes)
	if err != nil {
		return MemDeleteData{}, notes, err
	}
	for _, id := range in.IDs {
		if !m.Exists(id) {
			return MemDeleteData{}, notes, delivery.Errorf(tool.CodeNotFound, "memory node %s not found", id)
		}
	}
	now := rt.Now()
	ts := delivery.Timestamp(now)
	deleted, skipped := []string{}, []string{}
	var versions []*delivery.MemNode
	for _, n := range m.Nodes {
		selected := slices.Contains(in.IDs, n.ID) || (in.Tag != "" && slices.Contains(n.Tags, in.Tag)) ||
			(in.ByAge && now.Sub(n.Created()) > in.OlderThan)
		if !selected {
			continue
		}
		if n.Deleted() {
			skipped = append(skipped, n.ID)
			continue
		}
		v := n.Clone()
		v.Meta().Set("status", delivery.MemStatusDeleted)
		v.Meta().Set("deleted_at", ts)
		v.UpdatedAt = ts
		versions = append(versions, v)
		deleted = append(deleted, n.ID)
	}
	if !in.DryRun && len(versions) > 0 {
		if err := delivery.AppendMemory(ws.Root, versions...); err != nil {
			return MemDeleteData{}, notes, err
		}
	}
	notes.Headline = fmt.Sprintf("Deleted %d node(s)", len(deleted))
	return MemDeleteData{Deleted: deleted, Skipped: skipped, DryRun: in.DryRun}, notes, nil
}
