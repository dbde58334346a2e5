package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WUBlockInput is wu:block's input.
type WUBlockInput struct {
	ID string
	// Reason says why the WU is blocked; it must not be blank.
	Reason string
	// RemoveWorktree removes the WU's worktree (its branch is kept).
	RemoveWorktree bool
}

// Check rejects a blank reason as the command's argv phase does (USAGE).
func (in WUBlockInput) Check() error {
	if strings.TrimSpace(in.Reason) == "" {
		return delivery.Errorf(tool.CodeUsage, "invalid value %q for --reason: expected non-empty string", in.Reason)
	}
	return nil
}

// WUBlockData is wu:block's JSON data.
type WUBlockData struct {
	ID              string  `json:"id"`
	Status          string  `json:"status"`
	Reason          string  `json:"reason"`
	LockReleased    bool    `json:"lock_released"`
	WorktreeRemoved bool    `json:"worktree_removed"`
	Commit          *Commit `json:"commit"`
}

// WUBlock is corpus §3.1 wu:block: status blocked with its reason and a dated note, a block
// event, the lane lock released under lock_policy active, a commit, then the worktree
// removed when asked (a failure to remove it is a warning). Notes.Headline is
// "Blocked <id>: <reason>".
func WUBlock(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WUBlockInput) (WUBlockData, Notes, error) {
	var notes Notes
	if err := in.Check(); err != nil {
		return WUBlockData{}, notes, err
	}
	w, err := delivery.ReadWU(ws, in.ID)
	if err != nil {
		return WUBlockData{}, notes, err
	}
	if err := RequireStatus(w, delivery.StatusBlocked, delivery.StatusInProgress); err != nil {
		return WUBlockData{}, notes, err
	}
	w.Set("status", storage.StrNode(delivery.StatusBlocked))
	w.Set("blocked_reason", storage.StrNode(in.Reason))
	AppendNote(rt, w, "Blocked: "+in.Reason)
	w.Refresh()
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return WUBlockData{}, notes, err
	}
	if err := AppendEvent(ws, rt, delivery.Event{Type: delivery.EventBlock, WUID: w.ID, Reason: in.Reason}); err != nil {
		return WUBlockData{}, notes, err
	}
	data := WUBlockData{ID: w.ID, Status: delivery.StatusBlocked, Reason: in.Reason}
	if LockPolicy(ws, w.Lane) == delivery.LockActive {
		if data.LockReleased, err = ReleaseLockFor(ws, w); err != nil {
			return WUBlockData{}, notes, err
		}
	}
	if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, fmt.Sprintf("wu(%s): block", strings.ToLower(w.ID)), w.Path, delivery.EventsFile); err != nil {
		return WUBlockData{}, notes, err
	}
	if in.RemoveWorktree {
		data.WorktreeRemoved = RemoveWorktreeOrWarn(ctx, ws, rt, &notes, w)
	}
	notes.Headline = fmt.Sprintf("Blocked %s: %s", w.ID, in.Reason)
	return data, notes, nil
}
