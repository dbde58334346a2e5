package wu

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/tool"
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
	f.Worktree = w.WorktreePath
	if f.Worktree == "" {
		f.Worktree = ws.WorktreePath(w.Lane, w.ID)
	}
	if fi, err := os.Stat(ws.Abs(f.Worktree)); err == nil && fi.IsDir() {
		f.WorktreeExists = true
	}
	f.Branch = w.ClaimedBranch
	if f.Branch == "" {
		f.Branch = ws.LaneBranch(w.Lane, w.ID)
	}
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

// registeredWorktree reports whether the root-relative dir is a registered git worktree of
// the repository at root.
func registeredWorktree(ctx context.Context, g *delivery.Git, root, rel string) bool {
	list, err := g.WorktreeList(ctx)
	if err != nil {
		return false
	}
	want := canonicalPath(filepath.Join(root, filepath.FromSlash(rel)))
	for _, wt := range list {
		if canonicalPath(wt.Path) == want {
			return true
		}
	}
	return false
}

// canonicalPath resolves symlinks of the longest existing prefix, so paths git prints
// (real paths) compare equal to paths built from the workspace root.
func canonicalPath(p string) string {
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	dir, base := filepath.Split(p)
	if dir == "" || filepath.Clean(dir) == p {
		return p
	}
	return filepath.Join(canonicalPath(filepath.Clean(dir)), base)
}

// worktreeCleanup is what removing a done WU's leftovers did (wu:cleanup and wu:recover
// --action cleanup).
type worktreeCleanup struct {
	WorktreeRemoved bool
	BranchDeleted   bool
	LockReleased    bool
	Applied         []string
}

// cleanupDone removes the worktree of a done WU (a dirty one is DIRTY_WORKTREE unless
// force), deletes its lane branch (a branch that is not merged is a warning, or deleted
// anyway with force) and releases a lock held for it.
func cleanupDone(c *convention.Call, ws *delivery.Workspace, w *delivery.WU, force bool) (worktreeCleanup, error) {
	var res worktreeCleanup
	ctx := c.Context()
	f := factsOf(c, ws, &delivery.EventLog{}, w)
	if delivery.InWorkTree(ctx, ws.Root) {
		g := delivery.NewGit(ws.Root, c.Runtime())
		if f.WorktreeExists && registeredWorktree(ctx, g, ws.Root, f.Worktree) {
			if !force {
				dirty, err := (&delivery.Git{Dir: ws.Abs(f.Worktree)}).Dirty(ctx)
				if err != nil {
					return res, err
				}
				if dirty {
					return res, delivery.Errorf(tool.CodeDirtyWorktree, "worktree %s has uncommitted changes", f.Worktree).
						WithDetails(map[string]any{"worktree_path": f.Worktree})
				}
			}
			if err := g.WorktreeRemove(ctx, f.Worktree, force); err != nil {
				return res, err
			}
			res.WorktreeRemoved = true
			res.Applied = append(res.Applied, "worktree removed: "+f.Worktree)
		}
		if g.BranchExists(ctx, f.Branch) {
			if err := g.BranchDelete(ctx, f.Branch, force); err != nil {
				c.Warn("branch %s not deleted: %s", f.Branch, strings.TrimPrefix(delivery.AsError(err).Message, "git branch: "))
			} else {
				res.BranchDeleted = true
				res.Applied = append(res.Applied, "branch deleted: "+f.Branch)
			}
		}
	}
	released, err := releaseLockFor(ws, w)
	if err != nil {
		return res, err
	}
	if released {
		res.LockReleased = true
		res.Applied = append(res.Applied, "lock released: "+delivery.LockRel(w.Lane))
	}
	return res, nil
}
