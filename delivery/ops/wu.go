package ops

import (
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WUKeys are the configuration sections every wu operation reads; open the workspace
// with them (OpenWorkspace(ctx, dir, env, WUKeys...)).
var WUKeys = []string{"software_delivery.directories", "software_delivery.lanes", "software_delivery.wu"}

// LockPolicy is the lock_policy of a lane (undefined lanes behave as "all").
func LockPolicy(ws *delivery.Workspace, lane string) string {
	def, _ := ws.Config.Lane(lane)
	if def.LockPolicy == "" {
		return delivery.LockAll
	}
	return def.LockPolicy
}

// loadEvents reads the event log and records one warning per skipped line (corpus §1.7).
func loadEvents(ws *delivery.Workspace, notes *Notes) (*delivery.EventLog, error) {
	log, err := ws.Events()
	if err != nil {
		return nil, err
	}
	for _, w := range log.Warnings() {
		notes.Warn("%s", w)
	}
	return log, nil
}

// AppendEvent appends ev stamped with the runtime's clock.
func AppendEvent(ws *delivery.Workspace, rt *delivery.Runtime, ev delivery.Event) error {
	ev.Timestamp = delivery.Timestamp(rt.Now())
	return delivery.AppendEvents(ws.Root, ev)
}

// RequireStatus fails with INVALID_TRANSITION unless the WU's normalised status is one of
// allowed; to names the target status in the message.
func RequireStatus(w *delivery.WU, to string, allowed ...string) error {
	if slices.Contains(allowed, w.NormStatus()) {
		return nil
	}
	return delivery.Errorf(tool.CodeInvalidTransition, "%s is %s: cannot move to %s", w.ID, w.NormStatus(), to)
}

// ValidationError reports violations as one VALIDATION error (one stderr line each).
func ValidationError(id string, violations []string) error {
	return (&delivery.Error{Code: tool.CodeValidation,
		Message: fmt.Sprintf("%s: %d validation error(s)", id, len(violations))}).
		WithDetails(map[string]any{"errors": violations})
}

// AppendNote appends a dated note line ("[<date>] <text>") to the WU's notes on a new
// line. A legacy list of notes is rewritten as one string (the typed view already joins it).
func AppendNote(rt *delivery.Runtime, w *delivery.WU, text string) {
	note := fmt.Sprintf("[%s] %s", delivery.Date(rt.Now()), text)
	if w.Notes != "" {
		note = w.Notes + "\n" + note
	}
	w.Set("notes", storage.StrNode(note))
}

// exists reports whether a root-relative path exists.
func exists(ws *delivery.Workspace, rel string) bool {
	_, err := os.Lstat(ws.Abs(rel))
	return err == nil
}

// worktreeDir returns the WU's worktree (root-relative) when it is claimed in worktree
// mode and the directory exists, else "".
func worktreeDir(ws *delivery.Workspace, w *delivery.WU) string {
	if w.ClaimedMode != "worktree" || w.WorktreePath == "" {
		return ""
	}
	if fi, err := os.Stat(ws.Abs(w.WorktreePath)); err == nil && fi.IsDir() {
		return w.WorktreePath
	}
	return ""
}

// RemoveWorktreeOrWarn removes the WU's worktree (git worktree remove, branch kept) after
// an operation's state change is committed. A failure (a dirty worktree, say) is a
// warning, because the state change itself succeeded and the worktree can be removed
// later (wu:prune, wu:cleanup). It reports whether a worktree was removed.
func RemoveWorktreeOrWarn(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes, w *delivery.WU) bool {
	dir := worktreeDir(ws, w)
	if dir == "" {
		return false
	}
	if err := delivery.NewGit(ws.Root, rt).WorktreeRemove(ctx, dir, false); err != nil {
		notes.Warn("worktree %s not removed: %s", w.WorktreePath, delivery.AsError(err).Message)
		return false
	}
	return true
}

// ReleaseLockFor removes the lane lock of w's lane when it is held for w (whoever the
// owner is: the WU's claim is being given up). It reports whether a lock was removed.
func ReleaseLockFor(ws *delivery.Workspace, w *delivery.WU) (bool, error) {
	lk, err := lanelock.Read(ws.Root, w.Lane)
	if err != nil {
		return false, delivery.Errorf(tool.CodeIOError, "read lock of %s: %w", w.Lane, err)
	}
	if lk == nil || lk.WUID != w.ID {
		return false, nil
	}
	res, err := lanelock.Release(ws.Root, w.Lane, lk.Owner, true)
	if err != nil {
		return false, delivery.Errorf(tool.CodeIOError, "release lock of %s: %w", w.Lane, err)
	}
	return res.Released, nil
}

// AcquireLock takes the lane lock for w with the runtime's owner; a lock held by someone
// else is LANE_BUSY with details {holder}. The lock's own warnings go to notes.
func AcquireLock(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes, w *delivery.WU) (lanelock.Result, error) {
	res, err := lanelock.Acquire(ws.Root, w.Lane, w.ID, rt.Owner(ctx), rt.Now(), rt.StaleThreshold())
	if err != nil {
		return res, delivery.Errorf(tool.CodeIOError, "lock %s: %w", w.Lane, err)
	}
	for _, warn := range res.Warnings {
		notes.Warn("%s", warn)
	}
	if !res.Acquired {
		holder := res.Holder
		msg := fmt.Sprintf("lane %s is locked", w.Lane)
		if holder != nil {
			msg = fmt.Sprintf("lane %s is locked by %s for %s", w.Lane, holder.Owner, holder.WUID)
		}
		return res, (&delivery.Error{Code: tool.CodeLaneBusy, Message: msg}).WithDetails(map[string]any{"holder": holder})
	}
	return res, nil
}
