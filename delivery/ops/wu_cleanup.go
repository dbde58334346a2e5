package ops

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WUCleanupInput is wu:cleanup's input.
type WUCleanupInput struct{ ID string }

// WUCleanupData is wu:cleanup's JSON data.
type WUCleanupData struct {
	ID              string `json:"id"`
	WorktreeRemoved bool   `json:"worktree_removed"`
	BranchDeleted   bool   `json:"branch_deleted"`
	LockReleased    bool   `json:"lock_released"`
}

// WUCleanup is corpus §3.1 wu:cleanup: a done WU's worktree removed (a dirty one is
// DIRTY_WORKTREE), its lane branch deleted (one that is not merged is kept, with a
// warning) and a lock held for it released. It commits nothing. Notes.Headline is
// "Cleaned up <id>".
func WUCleanup(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WUCleanupInput) (WUCleanupData, Notes, error) {
	var notes Notes
	w, err := delivery.ReadWU(ws, in.ID)
	if err != nil {
		return WUCleanupData{}, notes, err
	}
	if w.NormStatus() != delivery.StatusDone {
		return WUCleanupData{}, notes, delivery.Errorf(tool.CodeInvalidTransition, "%s is %s: only a done WU can be cleaned up", w.ID, w.NormStatus())
	}
	res, err := CleanupDone(ctx, ws, rt, &notes, w, false)
	if err != nil {
		return WUCleanupData{}, notes, err
	}
	notes.Headline = "Cleaned up " + w.ID
	return WUCleanupData{ID: w.ID, WorktreeRemoved: res.WorktreeRemoved, BranchDeleted: res.BranchDeleted, LockReleased: res.LockReleased}, notes, nil
}

// WorktreeCleanup is what removing a done WU's leftovers did (wu:cleanup and wu:recover
// --action cleanup).
type WorktreeCleanup struct {
	WorktreeRemoved bool
	BranchDeleted   bool
	LockReleased    bool
	Applied         []string
}

// WUWorktree is the root-relative worktree a WU has or would have (its worktree_path,
// else the §1.4 path) and whether that directory exists.
func WUWorktree(ws *delivery.Workspace, w *delivery.WU) (string, bool) {
	rel := w.WorktreePath
	if rel == "" {
		rel = ws.WorktreePath(w.Lane, w.ID)
	}
	fi, err := os.Stat(ws.Abs(rel))
	return rel, err == nil && fi.IsDir()
}

// WUBranch is the lane branch a WU has or would have (its claimed_branch, else §1.4's).
func WUBranch(ws *delivery.Workspace, w *delivery.WU) string {
	if w.ClaimedBranch != "" {
		return w.ClaimedBranch
	}
	return ws.LaneBranch(w.Lane, w.ID)
}

// CleanupDone removes the worktree of a done WU (a dirty one is DIRTY_WORKTREE unless
// force), deletes its lane branch (a branch that is not merged is a warning, or deleted
// anyway with force) and releases a lock held for it.
func CleanupDone(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes, w *delivery.WU, force bool) (WorktreeCleanup, error) {
	var res WorktreeCleanup
	worktree, exists := WUWorktree(ws, w)
	branch := WUBranch(ws, w)
	if rt.InWorkTree(ctx, ws.Root) {
		g := delivery.NewGit(ws.Root, rt)
		if exists && RegisteredWorktree(ctx, g, ws.Root, worktree) {
			if !force {
				dirty, err := (&gitrepo.Git{Dir: ws.Abs(worktree), Environ: g.Environ}).Dirty(ctx)
				if err != nil {
					return res, err
				}
				if dirty {
					return res, delivery.Errorf(tool.CodeDirtyWorktree, "worktree %s has uncommitted changes", worktree).
						WithDetails(map[string]any{"worktree_path": worktree})
				}
			}
			if err := g.WorktreeRemove(ctx, worktree, force); err != nil {
				return res, err
			}
			res.WorktreeRemoved = true
			res.Applied = append(res.Applied, "worktree removed: "+worktree)
		}
		if g.BranchExists(ctx, branch) {
			if err := g.BranchDelete(ctx, branch, force); err != nil {
				notes.Warn("branch %s not deleted: %s", branch, strings.TrimPrefix(delivery.AsError(err).Message, "git branch: "))
			} else {
				res.BranchDeleted = true
				res.Applied = append(res.Applied, "branch deleted: "+branch)
			}
		}
	}
	released, err := ReleaseLockFor(ws, w)
	if err != nil {
		return res, err
	}
	if released {
		res.LockReleased = true
		res.Applied = append(res.Applied, "lock released: "+delivery.LockRel(w.Lane))
	}
	return res, nil
}

// RegisteredWorktree reports whether the root-relative dir is a registered git worktree
// of the repository at root.
func RegisteredWorktree(ctx context.Context, g *gitrepo.Git, root, rel string) bool {
	list, err := g.WorktreeList(ctx)
	if err != nil {
		return false
	}
	want := CanonicalPath(filepath.Join(root, filepath.FromSlash(rel)))
	for _, wt := range list {
		if CanonicalPath(wt.Path) == want {
			return true
		}
	}
	return false
}

// CanonicalPath resolves symlinks of the longest existing prefix, so paths git prints
// (real paths) compare equal to paths built from the workspace root.
func CanonicalPath(p string) string {
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	dir, base := filepath.Split(p)
	if dir == "" || filepath.Clean(dir) == p {
		return p
	}
	return filepath.Join(CanonicalPath(filepath.Clean(dir)), base)
}
