package ops

import (
	"context"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
)

// Worktree classes of wu:prune.
const (
	pruneOrphan    = "orphan"
	pruneStale     = "stale"
	pruneBadBranch = "bad_branch"
	pruneOK        = "ok"
)

var worktreeWURe = regexp.MustCompile(`-wu-(\d+)$`)

// PruneHeader is wu:prune's text table header.
var PruneHeader = []string{"path", "wu", "status", "class", "action"}

// WUPruneData is wu:prune's JSON data.
type WUPruneData struct {
	Worktrees []PruneEntry `json:"worktrees"`
	Executed  bool         `json:"executed"`
}

// PruneEntry is one worktree under the worktrees directory.
type PruneEntry struct {
	Path     string  `json:"path"`
	Branch   *string `json:"branch"`
	WUID     *string `json:"wu_id"`
	WUStatus *string `json:"wu_status"`
	Class    string  `json:"class"`
	Action   string  `json:"action"`
}

// Row is the entry's line of the text table.
func (e PruneEntry) Row() []string {
	orDash := func(s *string) string {
		if s == nil || *s == "" {
			return "-"
		}
		return *s
	}
	return []string{e.Path, orDash(e.WUID), orDash(e.WUStatus), e.Class, e.Action}
}

// WUPrune is corpus §3.1 wu:prune: every git worktree directly under the worktrees
// directory, classified (orphan: no WU of its name; stale: its WU is neither in progress
// nor blocked; bad_branch: not the WU's lane branch; ok), with the action taken or, in a
// dry run, proposed: git's prunable records are pruned, a clean worktree of a done WU is
// removed, a dirty one kept with a warning, the rest reported. Outside a git work tree
// there is nothing to classify.
func WUPrune(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, execute bool) (WUPruneData, Notes, error) {
	var notes Notes
	data := WUPruneData{Worktrees: []PruneEntry{}, Executed: execute}
	if !gitrepo.InWorkTree(ctx, ws.Root) {
		return data, notes, nil
	}
	g := delivery.NewGit(ws.Root, rt)
	list, err := g.WorktreeList(ctx)
	if err != nil {
		return WUPruneData{}, notes, err
	}
	parent := CanonicalPath(ws.Abs(strings.TrimSuffix(ws.Config.WorktreesDir, "/")))
	root := CanonicalPath(ws.Root)
	if execute {
		if _, err := g.Output(ctx, "worktree", "prune"); err != nil {
			return WUPruneData{}, notes, err
		}
	}
	for _, wt := range list {
		p := CanonicalPath(wt.Path)
		if filepath.Dir(p) != parent {
			continue
		}
		rel, _ := filepath.Rel(root, p)
		e := PruneEntry{Path: filepath.ToSlash(rel), Branch: strPtr(wt.Branch), Action: "none"}
		var w *delivery.WU
		if m := worktreeWURe.FindStringSubmatch(path.Base(e.Path)); m != nil {
			id := "WU-" + m[1]
			e.WUID = &id
			w, _ = delivery.ReadWU(ws, id)
		}
		switch {
		case w == nil:
			e.Class, e.Action = pruneOrphan, "report"
		case w.NormStatus() != delivery.StatusInProgress && w.NormStatus() != delivery.StatusBlocked:
			e.Class = pruneStale
		case wt.Branch != ws.LaneBranch(w.Lane, w.ID):
			e.Class, e.Action = pruneBadBranch, "report"
		default:
			e.Class = pruneOK
		}
		if w != nil {
			st := w.NormStatus()
			e.WUStatus = &st
		}
		if wt.Prunable {
			e.Action = "prune"
			if execute {
				e.Action = "pruned"
			}
		} else if e.Class == pruneStale {
			e.Action = pruneStaleAction(ctx, ws, g, &notes, w, e.Path, execute)
		}
		data.Worktrees = append(data.Worktrees, e)
	}
	return data, notes, nil
}

// pruneStaleAction decides (and with execute performs) what happens to a stale worktree:
// only a clean worktree of a done WU is removed; a dirty one is kept with a warning.
func pruneStaleAction(ctx context.Context, ws *delivery.Workspace, g *gitrepo.Git, notes *Notes, w *delivery.WU, rel string, execute bool) string {
	if w.NormStatus() != delivery.StatusDone {
		return "report"
	}
	dirty, err := (&gitrepo.Git{Dir: ws.Abs(rel)}).Dirty(ctx)
	if err != nil || dirty {
		if execute {
			notes.Warn("worktree %s has uncommitted changes: kept", rel)
		}
		return "keep_dirty"
	}
	if !execute {
		return "remove"
	}
	if err := g.WorktreeRemove(ctx, rel, false); err != nil {
		notes.Warn("worktree %s not removed: %s", rel, delivery.AsError(err).Message)
		return "remove_failed"
	}
	return "removed"
}
