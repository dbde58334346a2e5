package wu

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:recover",
		New: newWURecoverApp, Main: convention.Main(newWURecoverApp)})
}

// Recovery actions of wu:recover --action.
const (
	recoverResume  = "resume"
	recoverReset   = "reset"
	recoverNuke    = "nuke"
	recoverCleanup = "cleanup"
)

func newWURecoverApp() *cli.App {
	action := convention.Enum("action", "fix the WU instead of only reporting", "",
		recoverResume, recoverReset, recoverNuke, recoverCleanup)
	// The flag table cannot say "--force is required with reset and nuke" (the rule
	// depends on a value), so the check runs as the flag's action: urfave/cli runs it
	// after argv was accepted and before the command's action, and an error there is a
	// usage error (exit 2, nothing executed), like the declarative rules.
	action.Action = func(cctx *cli.Context, v any) error {
		switch fmt.Sprint(v) {
		case recoverReset, recoverNuke:
			if !cctx.Bool("force") {
				return fmt.Errorf("flag --action requires --force")
			}
		}
		return nil
	}
	return convention.App(convention.Spec{
		Name:  "wu:recover",
		Usage: "Diagnose a WU whose files, events, worktree and lock disagree, and optionally fix it",
		Flags: []cli.Flag{
			convention.WU("id", "WU to diagnose", true),
			action,
			&cli.BoolFlag{Name: "force", Usage: "confirm a destructive action (required with reset and nuke)"},
		},
		Destructive: true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("action")), tool.WritesWhen(tool.IsEqual("action", recoverResume))},
		// The rule --action's own check enforces (see above).
		Enforces: []convention.Rule{convention.RequiresWhen("action", []string{recoverReset, recoverNuke}, "force")},
		Action:   wuRecover,
	})
}

func wuRecover(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	w, err := delivery.ReadWU(ws, c.Value("id"))
	if err != nil {
		return err
	}
	action := c.Value("action")
	log, err := delivery.LoadEvents(ws.Root)
	if err != nil {
		return err
	}
	// nuke re-reads the log through wu:delete's plan, which prints these warnings itself.
	if action != recoverNuke {
		for _, wn := range log.Warnings() {
			c.Warn("%s", wn)
		}
	}
	facts := factsOf(c, ws, log, w)
	data := wuRecoverData{ID: w.ID, Issues: diagnoseWU(w, facts), Applied: []string{}}
	if data.Issues == nil {
		data.Issues = []wuIssue{}
	}
	if action != "" {
		data.Action = &action
		var paths []string
		switch action {
		case recoverResume:
			paths, err = recoverDoResume(c, ws, w, facts, &data)
		case recoverReset:
			paths, err = recoverDoReset(c, ws, w, facts, &data)
		case recoverNuke:
			paths, err = recoverDoNuke(c, ws, w, facts, &data)
		case recoverCleanup:
			err = recoverDoCleanup(c, ws, w, &data)
		}
		if err != nil {
			return err
		}
		if len(paths) > 0 {
			subject := fmt.Sprintf("wu(%s): recover %s", strings.ToLower(w.ID), action)
			if data.Commit, err = c.Commit(ws, subject, paths...); err != nil {
				return err
			}
		}
	}
	return c.Print(recoverText(data), data)
}

// recoverDoResume brings an in-progress WU back to a workable claim: the lock first (the
// only step that can be refused, so nothing is written when the lane is busy), then the
// worktree, then a claim event when the event state is not in_progress.
func recoverDoResume(c *convention.Call, ws *delivery.Workspace, w *delivery.WU, f wuFacts, d *wuRecoverData) ([]string, error) {
	if w.NormStatus() != delivery.StatusInProgress {
		return nil, delivery.Errorf(tool.CodeInvalidTransition, "%s is %s: only an in_progress WU can be resumed", w.ID, w.NormStatus())
	}
	ctx := c.Context()
	if f.Policy != delivery.LockNone {
		switch {
		case f.Lock != nil && f.Lock.WUID == w.ID && f.LockStale:
			// A stale lock of this WU is renewed, so the claim is live again.
			if _, err := lanelock.Release(ws.Root, w.Lane, f.Lock.Owner, true); err != nil {
				return nil, delivery.Errorf(tool.CodeIOError, "release stale lock of %s: %w", w.Lane, err)
			}
			if _, err := acquireLock(c, ws, w); err != nil {
				return nil, err
			}
			d.Applied = append(d.Applied, "lock renewed: "+delivery.LockRel(w.Lane))
		case f.Lock == nil || f.Lock.WUID != w.ID:
			if _, err := acquireLock(c, ws, w); err != nil {
				return nil, err
			}
			d.Applied = append(d.Applied, "lock acquired: "+delivery.LockRel(w.Lane))
		}
	}
	if w.ClaimedMode == worktreeModeWorktree && !f.WorktreeExists && delivery.InWorkTree(ctx, ws.Root) {
		g := delivery.NewGit(ws.Root, c.Runtime())
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
		if err := appendEvent(c, ws, delivery.Event{Type: delivery.EventClaim, WUID: w.ID, Lane: w.Lane, Title: w.Title}); err != nil {
			return nil, err
		}
		d.Applied = append(d.Applied, "event appended: claim")
		return []string{delivery.EventsFile}, nil
	}
	return nil, nil
}

// recoverDoReset throws the claim away: worktree (forced), branch (-D), lock, then the
// YAML back to ready without its claim fields and a release event.
func recoverDoReset(c *convention.Call, ws *delivery.Workspace, w *delivery.WU, f wuFacts, d *wuRecoverData) ([]string, error) {
	ctx := c.Context()
	if delivery.InWorkTree(ctx, ws.Root) {
		g := delivery.NewGit(ws.Root, c.Runtime())
		if f.WorktreeExists && registeredWorktree(ctx, g, ws.Root, f.Worktree) {
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
	released, err := releaseLockFor(ws, w)
	if err != nil {
		return nil, err
	}
	if released {
		d.Applied = append(d.Applied, "lock released: "+delivery.LockRel(w.Lane))
	}
	w.Set("status", delivery.StrNode(delivery.StatusReady))
	clearKeys(w, claimKeys...)
	w.Refresh()
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return nil, err
	}
	d.Applied = append(d.Applied, "status set to ready: "+w.Path)
	if err := appendEvent(c, ws, delivery.Event{Type: delivery.EventRelease, WUID: w.ID, Reason: recoverResetReason}); err != nil {
		return nil, err
	}
	d.Applied = append(d.Applied, "event appended: release")
	return []string{w.Path, delivery.EventsFile}, nil
}

// recoverDoNuke is reset followed by wu:delete's deletions, in one commit. The reset
// leaves the WU ready, so the deletion plan (which refuses in_progress WUs) accepts it.
func recoverDoNuke(c *convention.Call, ws *delivery.Workspace, w *delivery.WU, f wuFacts, d *wuRecoverData) ([]string, error) {
	paths, err := recoverDoReset(c, ws, w, f, d)
	if err != nil {
		return nil, err
	}
	plan, err := planDeletion(c, ws, []string{w.ID})
	if err != nil {
		return nil, err
	}
	changed, err := plan.apply(ws)
	if err != nil {
		return nil, err
	}
	for _, file := range plan.files {
		d.Applied = append(d.Applied, "deleted: "+file)
	}
	d.Applied = append(d.Applied, fmt.Sprintf("events removed: %d", plan.events))
	for _, id := range plan.initiativeIDs() {
		d.Applied = append(d.Applied, "initiative updated: "+id)
	}
	for _, p := range changed {
		if !containsString(paths, p) {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// recoverDoCleanup removes a done WU's leftovers (wu:cleanup's step; --force also removes
// a dirty worktree and an unmerged branch). It changes no committable artifact.
func recoverDoCleanup(c *convention.Call, ws *delivery.Workspace, w *delivery.WU, d *wuRecoverData) error {
	if w.NormStatus() != delivery.StatusDone {
		return delivery.Errorf(tool.CodeInvalidTransition, "%s is %s: only a done WU can be cleaned up", w.ID, w.NormStatus())
	}
	res, err := cleanupDone(c, ws, w, c.Bool("force"))
	if err != nil {
		return err
	}
	d.Applied = append(d.Applied, res.Applied...)
	return nil
}

// recoverText is wu:recover's text layout: the issue count, one line per issue, one per
// applied step, then rule R4.
func recoverText(d wuRecoverData) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d issue(s)\n", d.ID, len(d.Issues))
	for _, is := range d.Issues {
		fmt.Fprintf(&b, "  %s: %s (suggested: %s)\n", is.Code, is.Message, is.SuggestedAction)
	}
	for _, step := range d.Applied {
		fmt.Fprintf(&b, "  applied: %s\n", step)
	}
	b.WriteString(convention.CommitLines(d.Commit))
	return b.String()
}

// wuRecoverData is wu:recover's JSON data.
type wuRecoverData struct {
	ID      string             `json:"id"`
	Issues  []wuIssue          `json:"issues"`
	Action  *string            `json:"action"`
	Applied []string           `json:"applied"`
	Commit  *convention.Commit `json:"commit"`
}
