package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WUClaimInput is wu:claim's input.
type WUClaimInput struct {
	ID, Lane string
	// BranchOnly works in the main checkout instead of a worktree.
	BranchOnly bool
	// Force skips the dependency and WIP checks (never the lock).
	Force bool
}

// WUClaimData is wu:claim's JSON data.
type WUClaimData struct {
	ID           string  `json:"id"`
	Lane         string  `json:"lane"`
	Status       string  `json:"status"`
	ClaimedMode  string  `json:"claimed_mode"`
	WorktreePath *string `json:"worktree_path"`
	Branch       *string `json:"branch"`
	SessionID    string  `json:"session_id"`
	LockPath     *string `json:"lock_path"`
	Commit       *Commit `json:"commit"`
}

// WUClaim is corpus §3.1 wu:claim. Notes.Headline is "Claimed <id> (<lane>)".
func WUClaim(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WUClaimInput) (WUClaimData, Notes, error) {
	var notes Notes
	res, err := ClaimWU(ctx, ws, rt, &notes, in)
	if err != nil {
		return WUClaimData{}, notes, err
	}
	w := res.WU
	notes.Headline = fmt.Sprintf("Claimed %s (%s)", w.ID, w.Lane)
	return WUClaimData{ID: w.ID, Lane: w.Lane, Status: w.NormStatus(), ClaimedMode: res.Mode,
		WorktreePath: res.WorktreePath, Branch: res.Branch, SessionID: res.SessionID,
		LockPath: res.LockPath, Commit: res.Commit}, notes, nil
}

// Claim is what the claim step did.
type Claim struct {
	WU           *delivery.WU
	Mode         string
	WorktreePath *string
	Branch       *string
	SessionID    string
	LockPath     *string
	Commit       *Commit
}

// ClaimWU is the claim step of corpus §3.1 wu:claim, shared with wu:proto. Checks run in
// the spec's order and nothing is written until all of them pass (the lock is the first
// write); once the lock is taken, any later failure releases it again.
func ClaimWU(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes, in WUClaimInput) (res *Claim, err error) {
	w, err := delivery.ReadWU(ws, in.ID)
	if err != nil {
		return nil, err
	}
	if in.Lane != w.Lane {
		return nil, ValidationError(w.ID, []string{fmt.Sprintf("lane %q does not match %s's lane %q", in.Lane, w.ID, w.Lane)})
	}
	if err := RequireStatus(w, delivery.StatusInProgress, delivery.StatusReady); err != nil {
		return nil, err
	}
	if v := delivery.ValidateStrict(w, ws.Config.MinDescriptionLength); len(v) > 0 {
		return nil, ValidationError(w.ID, v)
	}
	if !in.Force {
		if err := checkClaimable(ws, w); err != nil {
			return nil, err
		}
	}
	mode := "worktree"
	if in.BranchOnly {
		mode = "branch-only"
	} else if !gitrepo.InWorkTree(ctx, ws.Root) {
		mode = "branch-only"
		notes.Warn("%s is not a git repository: claiming in branch-only mode", ".")
	}
	g := delivery.NewGit(ws.Root, rt)
	out := &Claim{WU: w, Mode: mode}
	if mode == "worktree" {
		wt, branch := ws.WorktreePath(w.Lane, w.ID), ws.LaneBranch(w.Lane, w.ID)
		if exists(ws, wt) {
			return nil, delivery.Errorf(tool.CodeAlreadyExists, "worktree %s already exists", wt)
		}
		if g.BranchExists(ctx, branch) {
			return nil, delivery.Errorf(tool.CodeAlreadyExists, "branch %s already exists", branch)
		}
		out.WorktreePath, out.Branch = &wt, &branch
	}
	if LockPolicy(ws, w.Lane) != delivery.LockNone {
		lk, err := AcquireLock(ctx, ws, rt, notes, w)
		if err != nil {
			return nil, err
		}
		out.LockPath = &lk.LockPath
		if !lk.AlreadyHeld {
			defer func() {
				if err != nil {
					_, _ = lanelock.Release(ws.Root, w.Lane, rt.Owner(ctx), false)
				}
			}()
		}
	}
	out.SessionID = delivery.NewID(rt, delivery.KindUUID, nil)
	w.Set("status", storage.StrNode(delivery.StatusInProgress))
	w.Set("claimed_at", storage.TimestampNode(delivery.Timestamp(rt.Now())))
	w.Set("claimed_mode", storage.StrNode(mode))
	if mode == "worktree" {
		w.Set("worktree_path", storage.StrNode(*out.WorktreePath))
		w.Set("claimed_branch", storage.StrNode(*out.Branch))
	}
	w.Set("session_id", storage.StrNode(out.SessionID))
	w.Refresh()
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return nil, err
	}
	if err := AppendEvent(ws, rt, delivery.Event{Type: delivery.EventClaim, WUID: w.ID, Lane: w.Lane, Title: w.Title}); err != nil {
		return nil, err
	}
	subject := fmt.Sprintf("wu(%s): claim for %s lane", strings.ToLower(w.ID), delivery.Kebab(w.Lane))
	if out.Commit, err = CommitPaths(ctx, ws, rt, notes, subject, w.Path, delivery.EventsFile); err != nil {
		return nil, err
	}
	if mode == "worktree" {
		if err := g.WorktreeAdd(ctx, *out.WorktreePath, *out.Branch, true, "HEAD"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkClaimable applies the dependency and WIP checks of wu:claim (skipped by Force).
func checkClaimable(ws *delivery.Workspace, w *delivery.WU) error {
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return err
	}
	status := map[string]string{}
	var inLane []string
	for _, f := range files {
		if f.WU == nil {
			continue
		}
		status[f.ID] = f.WU.NormStatus()
		if f.ID != w.ID && f.WU.Lane == w.Lane && f.WU.NormStatus() == delivery.StatusInProgress {
			inLane = append(inLane, f.ID)
		}
	}
	var unmet []string
	for _, dep := range w.BlockedBy {
		switch s, ok := status[dep]; {
		case !ok:
			unmet = append(unmet, fmt.Sprintf("blocked by %s (missing)", dep))
		case s != delivery.StatusDone:
			unmet = append(unmet, fmt.Sprintf("blocked by %s (%s)", dep, s))
		}
	}
	if len(unmet) > 0 {
		return ValidationError(w.ID, unmet)
	}
	def, _ := ws.Config.Lane(w.Lane)
	limit := def.WIPLimit
	if limit < 1 {
		limit = 1
	}
	if len(inLane) >= limit {
		return (&delivery.Error{Code: tool.CodeLaneBusy,
			Message: fmt.Sprintf("lane %s is at its WIP limit (%d): %s in progress", w.Lane, limit, strings.Join(inLane, ", "))}).
			WithDetails(map[string]any{"holder": nil})
	}
	return nil
}
