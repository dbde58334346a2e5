package ops

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Issue codes of corpus §3.1 wu:recover, shared with wu:repair, and the actions they
// suggest.
const (
	IssueStatusMismatch  = "STATUS_MISMATCH"
	IssueMissingWorktree = "MISSING_WORKTREE_CLAIMED"
	IssueOrphanWorktree  = "ORPHAN_WORKTREE_DONE"
	IssueStampNotDone    = "STAMP_EXISTS_YAML_NOT_DONE"
	IssueDoneNoStamp     = "YAML_DONE_NO_STAMP"
	IssueLockMissing     = "LOCK_MISSING"
	IssueStaleLock       = "STALE_LOCK"

	suggestResume  = "resume"
	suggestReset   = "reset"
	suggestCleanup = "cleanup"
	suggestRepair  = "wu:repair"
)

// Recovery actions of wu:recover.
const (
	RecoverResume  = "resume"
	RecoverReset   = "reset"
	RecoverNuke    = "nuke"
	RecoverCleanup = "cleanup"
)

// recoverResetReason is the reason of the release event a reset appends.
const recoverResetReason = "wu:recover reset"

// WUIssue is one inconsistency between a WU's YAML, its events, stamp, worktree and lock,
// with the action that fixes it.
type WUIssue struct {
	Code            string `json:"code"`
	Message         string `json:"message"`
	SuggestedAction string `json:"suggested_action"`
}

// WUFacts is everything DiagnoseWU looked at, so the fixing operations act on the same
// view.
type WUFacts struct {
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

// FactsOf gathers the facts of one WU. It never writes.
func FactsOf(ws *delivery.Workspace, rt *delivery.Runtime, log *delivery.EventLog, w *delivery.WU) WUFacts {
	f := WUFacts{Policy: LockPolicy(ws, w.Lane), Stamp: delivery.StampExists(ws.Root, w.ID)}
	f.EventState, f.HasEvents = log.State(w.ID)
	f.Worktree, f.WorktreeExists = WUWorktree(ws, w)
	f.Branch = WUBranch(ws, w)
	if lk, err := lanelock.Read(ws.Root, w.Lane); err == nil && lk != nil {
		f.Lock = lk
		f.LockStale = lk.Stale(rt.Now(), rt.StaleThreshold())
	}
	return f
}

// DiagnoseWU lists the WU's issues in the spec's code order (never nil).
func DiagnoseWU(w *delivery.WU, f WUFacts) []WUIssue {
	out := []WUIssue{}
	status := w.NormStatus()
	if !delivery.Consistent(f.EventState, f.HasEvents, w.Status) {
		suggest := suggestRepair
		switch status {
		case delivery.StatusInProgress:
			suggest = suggestResume
		case delivery.StatusReady:
			suggest = suggestReset
		}
		out = append(out, WUIssue{IssueStatusMismatch,
			fmt.Sprintf("YAML status is %s but the event state is %s", status, f.EventState), suggest})
	}
	if status == delivery.StatusInProgress && w.ClaimedMode == "worktree" && !f.WorktreeExists {
		out = append(out, WUIssue{IssueMissingWorktree,
			fmt.Sprintf("claimed in worktree mode but %s is missing", f.Worktree), suggestResume})
	}
	if status == delivery.StatusDone && f.WorktreeExists {
		out = append(out, WUIssue{IssueOrphanWorktree,
			fmt.Sprintf("done but worktree %s still exists", f.Worktree), suggestCleanup})
	}
	if f.Stamp && status != delivery.StatusDone {
		out = append(out, WUIssue{IssueStampNotDone,
			fmt.Sprintf("stamp %s exists but YAML status is %s", delivery.StampRel(w.ID), status), suggestRepair})
	}
	if !f.Stamp && status == delivery.StatusDone {
		out = append(out, WUIssue{IssueDoneNoStamp,
			fmt.Sprintf("YAML status is done but stamp %s is missing", delivery.StampRel(w.ID)), suggestRepair})
	}
	if status == delivery.StatusInProgress && f.Policy != delivery.LockNone {
		switch {
		case f.Lock == nil:
			out = append(out, WUIssue{IssueLockMissing,
				fmt.Sprintf("in progress but lane %s has no lock", w.Lane), suggestResume})
		case f.Lock.WUID != w.ID:
			out = append(out, WUIssue{IssueLockMissing,
				fmt.Sprintf("in progress but the lock of lane %s is held for %s", w.Lane, f.Lock.WUID), suggestResume})
		}
	}
	if f.Lock != nil && f.Lock.WUID == w.ID && f.LockStale {
		out = append(out, WUIssue{IssueStaleLock,
			fmt.Sprintf("the lock of lane %s (owner %s, %s) is stale", w.Lane, f.Lock.Owner, f.Lock.Timestamp), suggestResume})
	}
	return out
}

// WURecoverInput is wu:recover's input.
type WURecoverInput struct {
	ID string
	// Action fixes the WU ("": only report): RecoverResume, RecoverReset, RecoverNuke or
	// RecoverCleanup. Reset and nuke need Force (the command's usage rule, the schema's).
	Action string
	Force  bool
}

// WURecoverData is wu:recover's JSON data.
type WURecoverData struct {
	ID      string    `json:"id"`
	Issues  []WUIssue `json:"issues"`
	Action  *string   `json:"action"`
	Applied []string  `json:"applied"`
	Commit  *Commit   `json:"commit"`
}

// WURecover is corpus §3.1 wu:recover: the WU's issues (DiagnoseWU), and with an action
// its fix: resume (lock, worktree, claim event), reset (worktree and branch removed, lock
// released, the YAML back to ready, a release event), nuke (reset, then wu:delete's
// deletions) or cleanup (a done WU's leftovers), one commit for what it changed of the
// committable artifacts. Notes.Text is the text report without its commit lines: the
// issue count, one line per issue and per applied step.
func WURecover(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WURecoverInput) (WURecoverData, Notes, error) {
	var notes Notes
	w, err := delivery.ReadWU(ws, in.ID)
	if err != nil {
		return WURecoverData{}, notes, err
	}
	log, err := delivery.LoadEvents(ws.Root)
	if err != nil {
		return WURecoverData{}, notes, err
	}
	// nuke re-reads the log through wu:delete's plan, which records these warnings itself.
	if in.Action != RecoverNuke {
		for _, wn := range log.Warnings() {
			notes.Warn("%s", wn)
		}
	}
	facts := FactsOf(ws, rt, log, w)
	data := WURecoverData{ID: w.ID, Issues: DiagnoseWU(w, facts), Applied: []string{}}
	if in.Action != "" {
		action := in.Action
		data.Action = &action
		var paths []string
		switch in.Action {
		case RecoverResume:
			paths, err = recoverResume(ctx, ws, rt, &notes, w, facts, &data)
		case RecoverReset:
			paths, err = recoverReset(ctx, ws, rt, w, facts, &data)
		case RecoverNuke:
			paths, err = recoverNuke(ctx, ws, rt, &notes, w, facts, &data)
		case RecoverCleanup:
			err = recoverCleanup(ctx, ws, rt, &notes, w, in.Force, &data)
		default:
			err = delivery.Errorf(tool.CodeUsage, "unknown action %q", in.Action)
		}
		if err != nil {
			return WURecoverData{}, notes, err
		}
		if len(paths) > 0 {
			subject := fmt.Sprintf("wu(%s): recover %s", strings.ToLower(w.ID), in.Action)
			if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, subject, paths...); err != nil {
				return WURecoverData{}, notes, err
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d issue(s)\n", data.ID, len(data.Issues))
	for _, is := range data.Issues {
		fmt.Fprintf(&b, "  %s: %s (suggested: %s)\n", is.Code, is.Message, is.SuggestedAction)
	}
	for _, step := range data.Applied {
		fmt.Fprintf(&b, "  applied: %s\n", step)
	}
	notes.Text = b.String()
	return data, notes, nil
}

// recoverResume brings an in-progress WU back to a workable claim: the lock first (the
// only step that can be refused, so nothing is written when the lane is busy), then the
// worktree, then a claim event when the event state is not in_progress.
func recoverResume(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes, w *delivery.WU, f WUFacts, d *WURecoverData) ([]string, error) {
	if w.NormStatus() != delivery.StatusInProgress {
		return nil, delivery.Errorf(tool.CodeInvalidTransition, "%s is %s: only an in_progress WU can be resumed", w.ID, w.NormStatus())
	}
	if f.Policy != delivery.LockNone {
		switch {
		case f.Lock != nil && f.Lock.WUID == w.ID && f.LockStale:
			// A stale lock of this WU is renewed, so the claim is live again.
			if _, err := lanelock.Release(ws.Root, w.Lane, f.Lock.Owner, true); err != nil {
				return nil, delivery.Errorf(tool.CodeIOError, "release stale lock of %s: %w", w.Lane, err)
			}
			if _, err := AcquireLock(ctx, ws, rt, notes, w); err != nil {
				return nil, err
			}
			d.Applied = append(d.Applied, "lock renewed: "+delivery.LockRel(w.Lane))
		case f.Lock == nil || f.Lock.WUID != w.ID:
			if _, err := AcquireLock(ctx, ws, rt, notes, w); err != nil {
				return nil, err
			}
			d.Applied = append(d.Applied, "lock acquired: "+delivery.LockRel(w.Lane))
		}
	}
	if w.ClaimedMode == "worktree" && !f.WorktreeExists && gitrepo.InWorkTree(ctx, ws.Root) {
		g := delivery.NewGit(ws.Root, rt)
		step := "worktree recreated: " + f.Worktree
		if g.BranchExists(ctx, f.Branch) {
			if err := g.WorktreeAdd(ctx, f.Worktree, f.Branch, false, ""); err != nil {
				return nil, err
			}
		} else {
			if err := g.WorktreeAdd(ctx, f.Worktree, f.Branch, true, "HEAD"); err != nil {
				return nil, err
			}
			step += " (new branch " + f.Branch + ")"
		}
		d.Applied = append(d.Applied, step)
	}
	if f.EventState != delivery.StatusInProgress {
		if err := AppendEvent(ws, rt, delivery.Event{Type: delivery.EventClaim, WUID: w.ID, Lane: w.Lane, Title: w.Title}); err != nil {
			return nil, err
		}
		d.Applied = append(d.Applied, "event appended: claim")
		return []string{delivery.EventsFile}, nil
	}
	return nil, nil
}

// recoverReset throws the claim away: worktree (forced), branch (-D), lock, then the
// YAML back to ready without its claim fields and a release event.
func recoverReset(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, w *delivery.WU, f WUFacts, d *WURecoverData) ([]string, error) {
	if gitrepo.InWorkTree(ctx, ws.Root) {
		g := delivery.NewGit(ws.Root, rt)
		if f.WorktreeExists && RegisteredWorktree(ctx, g, ws.Root, f.Worktree) {
			if err := g.WorktreeRemove(ctx, f.Worktree, true); err != nil {
				return nil, err
			}
			d.Applied = append(d.Applied, "worktree removed: "+f.Worktree)
		}
		if g.BranchExists(ctx, f.Branch) {
			if err := g.BranchDelete(ctx, f.Branch, true); err != nil {
				return nil, err
			}
			d.Applied = append(d.Applied, "branch deleted: "+f.Branch)
		}
	}
	released, err := ReleaseLockFor(ws, w)
	if err != nil {
		return nil, err
	}
	if released {
		d.Applied = append(d.Applied, "lock released: "+delivery.LockRel(w.Lane))
	}
	w.Set("status", storage.StrNode(delivery.StatusReady))
	for _, k := range ClaimKeys {
		w.Delete(k)
	}
	w.Refresh()
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return nil, err
	}
	d.Applied = append(d.Applied, "status set to ready: "+w.Path)
	if err := AppendEvent(ws, rt, delivery.Event{Type: delivery.EventRelease, WUID: w.ID, Reason: recoverResetReason}); err != nil {
		return nil, err
	}
	d.Applied = append(d.Applied, "event appended: release")
	return []string{w.Path, delivery.EventsFile}, nil
}

// recoverNuke is reset followed by wu:delete's deletions, in one commit. The reset leaves
// the WU ready, so the deletion plan (which refuses in_progress WUs) accepts it.
func recoverNuke(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes, w *delivery.WU, f WUFacts, d *WURecoverData) ([]string, error) {
	paths, err := recoverReset(ctx, ws, rt, w, f, d)
	if err != nil {
		return nil, err
	}
	plan, err := PlanDeletion(ws, notes, []string{w.ID})
	if err != nil {
		return nil, err
	}
	changed, err := plan.Apply(ws)
	if err != nil {
		return nil, err
	}
	for _, file := range plan.Files {
		d.Applied = append(d.Applied, "deleted: "+file)
	}
	d.Applied = append(d.Applied, fmt.Sprintf("events removed: %d", plan.Events))
	for _, id := range plan.InitiativeIDs() {
		d.Applied = append(d.Applied, "initiative updated: "+id)
	}
	for _, p := range changed {
		if !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// recoverCleanup removes a done WU's leftovers (wu:cleanup's step; force also removes a
// dirty worktree and an unmerged branch). It changes no committable artifact.
func recoverCleanup(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes, w *delivery.WU, force bool, d *WURecoverData) error {
	if w.NormStatus() != delivery.StatusDone {
		return delivery.Errorf(tool.CodeInvalidTransition, "%s is %s: only a done WU can be cleaned up", w.ID, w.NormStatus())
	}
	res, err := CleanupDone(ctx, ws, rt, notes, w, force)
	if err != nil {
		return err
	}
	d.Applied = append(d.Applied, res.Applied...)
	return nil
}
