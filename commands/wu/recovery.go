package wu

import (
	"context"
	"fmt"

	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
)

// Issue codes of spec §3.1 wu:recover, shared with wu:status, wu:repair and state:doctor.
// TODO(delivery): move to delivery.Issue* with diagnoseWU.
const (
	issueStatusMismatch  = "STATUS_MISMATCH"
	issueMissingWorktree = "MISSING_WORKTREE_CLAIMED"
	issueOrphanWorktree  = "ORPHAN_WORKTREE_DONE"
	issueStampNotDone    = "STAMP_EXISTS_YAML_NOT_DONE"
	issueDoneNoStamp     = "YAML_DONE_NO_STAMP"
	issueLockMissing     = "LOCK_MISSING"
	issueStaleLock       = "STALE_LOCK"
	suggestResume        = "resume"
	suggestReset         = "reset"
	suggestCleanup       = "cleanup"
	suggestRepair        = "wu:repair"
	reconcileReason      = "wu:repair reconcile"
	recoverResetReason   = "wu:recover reset"
	worktreeModeWorktree = "worktree"
)

// wuIssue is one inconsistency between a WU's YAML, its events, stamp, worktree and lock.
type wuIssue struct {
	Code            string `json:"code"`
	Message         string `json:"message"`
	SuggestedAction string `json:"suggested_action"`
}

// wuFacts is everything diagnoseWU looked at, so the fixing commands act on the same view.
type wuFacts struct {
	EventState string
	HasEvents  bool
	// Worktree is the root-relative worktree the WU has or would have (its worktree_path,
	// else the §1.4 path); WorktreeExists tells whether that directory exists.
	Worktree       string
	WorktreeExists bool
	Branch         string
	Stamp          bool
	Lock           *lanelock.Lock
	LockStale      bool
	Policy         string
}

// factsOf gathers the facts of one WU. It never writes.
func factsOf(c *convention.Call, ws *delivery.Workspace, log *delivery.EventLog, w *delivery.WU) wuFacts {
	f := wuFacts{Policy: lockPolicy(ws, w.Lane), Stamp: delivery.StampExists(ws.Root, w.ID)}
	f.EventState, f.HasEvents = log.State(w.ID)
	f.Worktree, f.WorktreeExists = ops.WUWorktree(ws, w)
	f.Branch = ops.WUBranch(ws, w)
	if lk, err := lanelock.Read(ws.Root, w.Lane); err == nil && lk != nil {
		f.Lock = lk
		rt := c.Runtime()
		f.LockStale = lk.Stale(rt.Now(), rt.StaleThreshold())
	}
	return f
}

// diagnoseWU lists the WU's issues in the spec's code order.
// TODO(delivery): move to delivery.DiagnoseWU (wu:status and state:doctor need it too).
func diagnoseWU(w *delivery.WU, f wuFacts) []wuIssue {
	var out []wuIssue
	status := w.NormStatus()
	if !delivery.Consistent(f.EventState, f.HasEvents, w.Status) {
		suggest := suggestRepair
		switch status {
		case delivery.StatusInProgress:
			suggest = suggestResume
		case delivery.StatusReady:
			suggest = suggestReset
		}
		out = append(out, wuIssue{issueStatusMismatch,
			fmt.Sprintf("YAML status is %s but the event state is %s", status, f.EventState), suggest})
	}
	if status == delivery.StatusInProgress && w.ClaimedMode == worktreeModeWorktree && !f.WorktreeExists {
		out = append(out, wuIssue{issueMissingWorktree,
			fmt.Sprintf("claimed in worktree mode but %s is missing", f.Worktree), suggestResume})
	}
	if status == delivery.StatusDone && f.WorktreeExists {
		out = append(out, wuIssue{issueOrphanWorktree,
			fmt.Sprintf("done but worktree %s still exists", f.Worktree), suggestCleanup})
	}
	if f.Stamp && status != delivery.StatusDone {
		out = append(out, wuIssue{issueStampNotDone,
			fmt.Sprintf("stamp %s exists but YAML status is %s", delivery.StampRel(w.ID), status), suggestRepair})
	}
	if !f.Stamp && status == delivery.StatusDone {
		out = append(out, wuIssue{issueDoneNoStamp,
			fmt.Sprintf("YAML status is done but stamp %s is missing", delivery.StampRel(w.ID)), suggestRepair})
	}
	if status == delivery.StatusInProgress && f.Policy != delivery.LockNone {
		switch {
		case f.Lock == nil:
			out = append(out, wuIssue{issueLockMissing,
				fmt.Sprintf("in progress but lane %s has no lock", w.Lane), suggestResume})
		case f.Lock.WUID != w.ID:
			out = append(out, wuIssue{issueLockMissing,
				fmt.Sprintf("in progress but the lock of lane %s is held for %s", w.Lane, f.Lock.WUID), suggestResume})
		}
	}
	if f.Lock != nil && f.Lock.WUID == w.ID && f.LockStale {
		out = append(out, wuIssue{issueStaleLock,
			fmt.Sprintf("the lock of lane %s (owner %s, %s) is stale", w.Lane, f.Lock.Owner, f.Lock.Timestamp), suggestResume})
	}
	return out
}

// registeredWorktree is ops.RegisteredWorktree.
func registeredWorktree(ctx context.Context, g *delivery.Git, root, rel string) bool {
	return ops.RegisteredWorktree(ctx, g, root, rel)
}

// canonicalPath is ops.CanonicalPath.
func canonicalPath(p string) string { return ops.CanonicalPath(p) }

// cleanupDone is ops.CleanupDone with its warnings printed.
func cleanupDone(c *convention.Call, ws *delivery.Workspace, w *delivery.WU, force bool) (ops.WorktreeCleanup, error) {
	var notes ops.Notes
	res, err := ops.CleanupDone(c.Context(), ws, c.Runtime(), &notes, w, force)
	c.Notes(notes)
	return res, err
}
