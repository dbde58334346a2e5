package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
)

// DefaultReleaseReason is wu:release's --reason default, used for a blank reason too.
const DefaultReleaseReason = "released via wu:release"

// ClaimKeys are the WU fields a claim sets; releasing (wu:release, wu:recover reset)
// clears them.
var ClaimKeys = []string{"claimed_at", "claimed_mode", "claimed_branch", "worktree_path", "session_id", "blocked_reason"}

// WUReleaseInput is wu:release's input.
type WUReleaseInput struct {
	ID string
	// Reason says why the claim is given up; blank means DefaultReleaseReason.
	Reason string
	// RemoveWorktree removes the WU's worktree (its branch is kept).
	RemoveWorktree bool
}

// WUReleaseData is wu:release's JSON data.
type WUReleaseData struct {
	ID              string  `json:"id"`
	Status          string  `json:"status"`
	Reason          string  `json:"reason"`
	LockReleased    bool    `json:"lock_released"`
	WorktreeRemoved bool    `json:"worktree_removed"`
	Commit          *Commit `json:"commit"`
}

// WURelease is corpus §3.1 wu:release: an in-progress WU back to ready with its claim
// fields cleared, a release event, the lane lock released when it is held for the WU
// (whoever owns it), a commit, then the worktree removed when asked (a failure to remove
// it is a warning). Notes.Headline is "Released <id>".
func WURelease(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WUReleaseInput) (WUReleaseData, Notes, error) {
	var notes Notes
	w, err := delivery.ReadWU(ws, in.ID)
	if err != nil {
		return WUReleaseData{}, notes, err
	}
	if err := RequireStatus(w, delivery.StatusReady, delivery.StatusInProgress); err != nil {
		return WUReleaseData{}, notes, err
	}
	reason := in.Reason
	if strings.TrimSpace(reason) == "" {
		reason = DefaultReleaseReason
	}
	claim := *w // the claim fields are needed to find the worktree after they are cleared
	w.Set("status", storage.StrNode(delivery.StatusReady))
	for _, k := range ClaimKeys {
		w.Delete(k)
	}
	w.Refresh()
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return WUReleaseData{}, notes, err
	}
	if err := AppendEvent(ws, rt, delivery.Event{Type: delivery.EventRelease, WUID: w.ID, Reason: reason}); err != nil {
		return WUReleaseData{}, notes, err
	}
	data := WUReleaseData{ID: w.ID, Status: delivery.StatusReady, Reason: reason}
	if data.LockReleased, err = ReleaseLockFor(ws, w); err != nil {
		return WUReleaseData{}, notes, err
	}
	if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, fmt.Sprintf("wu(%s): release", strings.ToLower(w.ID)), w.Path, delivery.EventsFile); err != nil {
		return WUReleaseData{}, notes, err
	}
	if in.RemoveWorktree {
		data.WorktreeRemoved = RemoveWorktreeOrWarn(ctx, ws, rt, &notes, &claim)
	}
	notes.Headline = "Released " + w.ID
	return data, notes, nil
}
