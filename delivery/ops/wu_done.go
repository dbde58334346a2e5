package ops

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WUDoneInput is wu:done's input.
type WUDoneInput struct {
	ID string
	// SkipGates completes without running the gates; Reason and FixWU (both required
	// with it, by the schema or the command's usage rules) go into the audit record.
	SkipGates     bool
	Reason, FixWU string
	// KeepWorktree keeps the worktree and the lane branch.
	KeepWorktree bool
	// Output receives the gates' own output (the command's stderr).
	Output io.Writer
}

// WUDoneData is wu:done's JSON data.
type WUDoneData struct {
	ID              string                `json:"id"`
	Status          string                `json:"status"`
	StampPath       string                `json:"stamp_path"`
	MergedBranch    *string               `json:"merged_branch"`
	WorktreeRemoved bool                  `json:"worktree_removed"`
	LockReleased    bool                  `json:"lock_released"`
	Gates           []delivery.GateResult `json:"gates"`
	SkippedGates    bool                  `json:"skipped_gates"`
	Commit          *Commit               `json:"commit"`
}

// skipGatesRecord is one .lumenflow/skip-gates-audit.ndjson line (corpus §1.12).
type skipGatesRecord struct {
	Timestamp string `json:"timestamp"`
	WUID      string `json:"wu_id"`
	Reason    string `json:"reason"`
	FixWU     string `json:"fix_wu"`
}

// WUDone is corpus §3.1 wu:done: an in_progress or blocked WU that passes strict
// validation, whose worktree (in worktree mode) has no uncommitted changes
// (DIRTY_WORKTREE), has its gates run (RunWUGates; GATES_FAILED without data) unless
// skipped, its lane branch merged into the main checkout (git merge; MERGE_CONFLICT after
// an abort), and only then its files written: the WU done and locked with its completion
// time and date, the stamp, a complete event, the skip-gates audit record when skipped;
// one commit; the worktree and branch removed unless kept (a failure is a warning); the
// lane lock released. Notes.Headline is "Completed <id>: <title>".
func WUDone(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WUDoneInput) (WUDoneData, Notes, error) {
	var notes Notes
	w, err := delivery.ReadWU(ws, in.ID)
	if err != nil {
		return WUDoneData{}, notes, err
	}
	if err := RequireStatus(w, delivery.StatusDone, delivery.StatusInProgress, delivery.StatusBlocked); err != nil {
		return WUDoneData{}, notes, err
	}
	if v := delivery.ValidateStrict(w, ws.Config.MinDescriptionLength); len(v) > 0 {
		return WUDoneData{}, notes, ValidationError(w.ID, v)
	}
	g := delivery.NewGit(ws.Root, rt)
	wt := worktreeDir(ws, w)
	if wt != "" {
		dirty, err := delivery.NewGit(ws.Abs(wt), rt).Dirty(ctx)
		if err != nil {
			return WUDoneData{}, notes, err
		}
		if dirty {
			return WUDoneData{}, notes, delivery.Errorf(tool.CodeDirtyWorktree, "worktree %s has uncommitted changes", wt)
		}
	}
	data := WUDoneData{ID: w.ID, Status: delivery.StatusDone, StampPath: delivery.StampRel(w.ID), SkippedGates: in.SkipGates}
	if !in.SkipGates {
		run, err := RunWUGates(ctx, ws, rt, &notes, w, false, in.Output)
		if err != nil {
			return WUDoneData{}, notes, err
		}
		if err := run.Err(); err != nil {
			return WUDoneData{}, notes, err
		}
		data.Gates = run.Results
	}
	branch := w.ClaimedBranch
	if w.ClaimedMode == "worktree" && branch != "" && g.BranchExists(ctx, branch) {
		if err := g.Merge(ctx, branch); err != nil {
			return WUDoneData{}, notes, err
		}
		data.MergedBranch = &branch
	}
	// Nothing was written before the merge succeeded; now the files change.
	now := rt.Now()
	w.Set("status", storage.StrNode(delivery.StatusDone))
	w.Set("locked", storage.BoolNode(true))
	w.Set("completed_at", storage.TimestampNode(delivery.Timestamp(now)))
	w.Set("completed", storage.DateNode(delivery.Date(now)))
	w.Delete("blocked_reason")
	w.Refresh()
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return WUDoneData{}, notes, err
	}
	if err := delivery.WriteStamp(ws.Root, w.ID, w.Title, delivery.Date(now)); err != nil {
		return WUDoneData{}, notes, err
	}
	if err := AppendEvent(ws, rt, delivery.Event{Type: delivery.EventComplete, WUID: w.ID}); err != nil {
		return WUDoneData{}, notes, err
	}
	if in.SkipGates {
		rec := skipGatesRecord{Timestamp: delivery.Timestamp(now), WUID: w.ID, Reason: in.Reason, FixWU: in.FixWU}
		if err := storage.AppendJSONL(ws.Abs(delivery.SkipGatesAudit), rec); err != nil {
			return WUDoneData{}, notes, delivery.Errorf(tool.CodeIOError, "skip-gates audit: %w", err)
		}
	}
	subject := fmt.Sprintf("wu(%s): done - %s", strings.ToLower(w.ID), delivery.Title60(w.Title))
	if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, subject, w.Path, data.StampPath, delivery.EventsFile); err != nil {
		return WUDoneData{}, notes, err
	}
	if wt != "" && !in.KeepWorktree {
		if err := g.WorktreeRemove(ctx, wt, false); err != nil {
			notes.Warn("worktree %s not removed: %s", wt, delivery.AsError(err).Message)
		} else {
			data.WorktreeRemoved = true
			if err := g.BranchDelete(ctx, branch, false); err != nil {
				notes.Warn("branch %s not deleted: %s", branch, delivery.AsError(err).Message)
			}
		}
	}
	if data.LockReleased, err = ReleaseLockFor(ws, w); err != nil {
		return WUDoneData{}, notes, err
	}
	notes.Headline = fmt.Sprintf("Completed %s: %s", w.ID, w.Title)
	return data, notes, nil
}
