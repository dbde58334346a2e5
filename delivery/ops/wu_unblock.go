package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
)

// WUUnblockInput is wu:unblock's input.
type WUUnblockInput struct {
	ID string
	// Reason, when not empty, is added to the WU's notes as "Unblocked: <reason>".
	Reason string
}

// WUUnblockData is wu:unblock's JSON data.
type WUUnblockData struct {
	ID           string  `json:"id"`
	Status       string  `json:"status"`
	LockAcquired bool    `json:"lock_acquired"`
	Commit       *Commit `json:"commit"`
}

// WUUnblock is corpus §3.1 wu:unblock: under lock_policy active the lane lock is taken
// first (a lane held by someone else is LANE_BUSY before anything is written), then
// status in_progress, the blocked reason removed, an unblock event and a commit.
// Notes.Headline is "Unblocked <id>".
func WUUnblock(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WUUnblockInput) (WUUnblockData, Notes, error) {
	var notes Notes
	w, err := delivery.ReadWU(ws, in.ID)
	if err != nil {
		return WUUnblockData{}, notes, err
	}
	if err := RequireStatus(w, delivery.StatusInProgress, delivery.StatusBlocked); err != nil {
		return WUUnblockData{}, notes, err
	}
	data := WUUnblockData{ID: w.ID, Status: delivery.StatusInProgress}
	if LockPolicy(ws, w.Lane) == delivery.LockActive {
		res, err := AcquireLock(ctx, ws, rt, &notes, w)
		if err != nil {
			return WUUnblockData{}, notes, err
		}
		data.LockAcquired = res.Acquired
	}
	w.Set("status", storage.StrNode(delivery.StatusInProgress))
	w.Delete("blocked_reason")
	if in.Reason != "" {
		AppendNote(rt, w, "Unblocked: "+in.Reason)
	}
	w.Refresh()
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return WUUnblockData{}, notes, err
	}
	if err := AppendEvent(ws, rt, delivery.Event{Type: delivery.EventUnblock, WUID: w.ID}); err != nil {
		return WUUnblockData{}, notes, err
	}
	if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, fmt.Sprintf("wu(%s): unblock", strings.ToLower(w.ID)), w.Path, delivery.EventsFile); err != nil {
		return WUUnblockData{}, notes, err
	}
	notes.Headline = "Unblocked " + w.ID
	return data, notes, nil
}
