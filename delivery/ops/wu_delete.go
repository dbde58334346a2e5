package ops

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WUDeleteInput is wu:delete's input.
type WUDeleteInput struct {
	// IDs are the WUs to delete (required; their form is the shell's check). A repeated
	// id counts once.
	IDs []string
	// DryRun reports what would be deleted without deleting.
	DryRun bool
}

// WUDeleteData is wu:delete's JSON data.
type WUDeleteData struct {
	Deleted            []string `json:"deleted"`
	FilesRemoved       []string `json:"files_removed"`
	EventsRemoved      int      `json:"events_removed"`
	InitiativesUpdated []string `json:"initiatives_updated"`
	DryRun             bool     `json:"dry_run"`
	Commit             *Commit  `json:"commit"`
}

// WUDelete is corpus §3.1 wu:delete: every id is checked first (it must exist, parse and not
// be in_progress), then, unless DryRun, each WU's YAML and stamp are deleted, its event
// lines removed, its id dropped from the initiatives' wus and a lock it holds released,
// all in one commit. Skipped event lines are warnings. Notes.Headline is "Deleted <ids>"
// ("Would delete <ids>" in a dry run).
func WUDelete(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WUDeleteInput) (WUDeleteData, Notes, error) {
	var notes Notes
	ids := uniq(in.IDs)
	plan, err := PlanDeletion(ws, &notes, ids)
	if err != nil {
		return WUDeleteData{}, notes, err
	}
	data := WUDeleteData{Deleted: ids, FilesRemoved: plan.Files, EventsRemoved: plan.Events,
		InitiativesUpdated: plan.InitiativeIDs(), DryRun: in.DryRun}
	notes.Headline = "Would delete " + strings.Join(ids, ", ")
	if in.DryRun {
		return data, notes, nil
	}
	paths, err := plan.Apply(ws)
	if err != nil {
		return WUDeleteData{}, notes, err
	}
	subject := "docs: delete " + strings.ToLower(ids[0])
	if len(ids) > 1 {
		subject = fmt.Sprintf("docs: delete %d wus (%s)", len(ids), strings.ToLower(strings.Join(ids, ", ")))
	}
	if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, subject, paths...); err != nil {
		return WUDeleteData{}, notes, err
	}
	notes.Headline = "Deleted " + strings.Join(ids, ", ")
	return data, notes, nil
}

// Deletion is the plan of wu:delete's deletions (shared with wu:recover --action nuke):
// which files go, which event lines stay, which initiatives lose ids, which locks are
// released. Planning reads only; Apply writes.
type Deletion struct {
	WUs         []*delivery.WU
	Files       []string // root-relative files that exist and will be removed
	Events      int      // event lines removed
	keptLines   [][]byte // the event log without those lines
	Initiatives []*delivery.Initiative
}

// PlanDeletion checks every id before anything is deleted: each must exist, parse and not
// be in_progress (INVALID_TRANSITION: release it first). The event log's skipped lines
// are warnings in notes.
func PlanDeletion(ws *delivery.Workspace, notes *Notes, ids []string) (*Deletion, error) {
	d := &Deletion{Files: []string{}}
	drop := map[string]bool{}
	for _, id := range ids {
		w, err := delivery.ReadWU(ws, id)
		if err != nil {
			return nil, err
		}
		if w.NormStatus() == delivery.StatusInProgress {
			return nil, delivery.Errorf(tool.CodeInvalidTransition, "%s is in_progress: release it before deleting it", id)
		}
		d.WUs = append(d.WUs, w)
		drop[id] = true
		d.Files = append(d.Files, w.Path)
		if delivery.StampExists(ws.Root, id) {
			d.Files = append(d.Files, delivery.StampRel(id))
		}
	}
	log, err := loadEvents(ws, notes)
	if err != nil {
		return nil, err
	}
	for _, ln := range log.Lines {
		if drop[ln.Event.WUID] {
			d.Events++
			continue
		}
		d.keptLines = append(d.keptLines, ln.Raw)
	}
	all, err := delivery.ListInitiatives(ws)
	if err != nil {
		return nil, err
	}
	for _, in := range all {
		for _, id := range in.WUs {
			if drop[id] {
				d.Initiatives = append(d.Initiatives, in)
				break
			}
		}
	}
	return d, nil
}

// InitiativeIDs lists the ids of the initiatives the deletion updates.
func (d *Deletion) InitiativeIDs() []string {
	out := make([]string, 0, len(d.Initiatives))
	for _, in := range d.Initiatives {
		out = append(out, in.ID)
	}
	return out
}

// Apply performs the deletion and returns the committable paths it changed.
func (d *Deletion) Apply(ws *delivery.Workspace) ([]string, error) {
	paths := append([]string(nil), d.Files...)
	for _, f := range d.Files {
		if err := storage.JournalWrite(ws.Abs(f)); err != nil {
			return nil, err
		}
		if err := os.Remove(ws.Abs(f)); err != nil && !os.IsNotExist(err) {
			return nil, delivery.Errorf(tool.CodeIOError, "delete %s: %w", f, err)
		}
	}
	if d.Events > 0 {
		if err := delivery.RewriteEvents(ws.Root, d.keptLines); err != nil {
			return nil, err
		}
		paths = append(paths, delivery.EventsFile)
	}
	for _, in := range d.Initiatives {
		for _, w := range d.WUs {
			if _, err := removeFromInitiative(ws, in, w.ID); err != nil {
				return nil, err
			}
		}
		paths = append(paths, in.Path)
	}
	for _, w := range d.WUs {
		if _, err := ReleaseLockFor(ws, w); err != nil {
			return nil, err
		}
	}
	return paths, nil
}
