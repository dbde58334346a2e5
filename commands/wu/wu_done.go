package wu

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:done",
		New: newWUDoneApp, Main: convention.Main(newWUDoneApp)})
}

func newWUDoneApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:done",
		Usage: "Complete a WU: run the gates, merge the lane branch, stamp, commit, clean up",
		Flags: []cli.Flag{
			convention.WU("id", "WU to complete", true),
			&cli.BoolFlag{Name: "skip-gates", Usage: "do not run the gates (needs --reason and --fix-wu; audited)"},
			&cli.StringFlag{Name: "reason", Usage: "why the gates are skipped"},
			convention.WU("fix-wu", "WU that will fix what the skipped gates would catch", false),
			&cli.BoolFlag{Name: "keep-worktree", Usage: "keep the worktree and the lane branch"},
		},
		Rules: []convention.Rule{
			// Checked as skip-gates→reason, reason→skip-gates, skip-gates→fix-wu, fix-wu→skip-gates:
			// the first failure is the one the four Requires in spec order give.
			convention.Together("skip-gates", "reason"), convention.Together("skip-gates", "fix-wu"),
		},
		Network:  true,
		RunsCode: true,
		// Skipping the gates runs no workspace code.
		Effects: []tool.Effect{tool.WritesWhen(tool.IsSet("skip_gates"))},
		Action:  wuDone,
	})
}

// skipGatesRecord is one .lumenflow/skip-gates-audit.ndjson line (spec §1.12).
type skipGatesRecord struct {
	Timestamp string `json:"timestamp"`
	WUID      string `json:"wu_id"`
	Reason    string `json:"reason"`
	FixWU     string `json:"fix_wu"`
}

func wuDone(c *convention.Call) error {
	ctx := c.Context()
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	w, err := delivery.ReadWU(ws, c.Value("id"))
	if err != nil {
		return err
	}
	if err := requireStatus(w, delivery.StatusDone, delivery.StatusInProgress, delivery.StatusBlocked); err != nil {
		return err
	}
	if v := delivery.ValidateStrict(w, ws.Config.MinDescriptionLength); len(v) > 0 {
		return validationError(w.ID, v)
	}
	g := delivery.NewGit(ws.Root, c.Runtime())
	wt := worktreeDir(ws, w)
	if wt != "" {
		dirty, err := delivery.NewGit(ws.Abs(wt), c.Runtime()).Dirty(ctx)
		if err != nil {
			return err
		}
		if dirty {
			return delivery.Errorf(tool.CodeDirtyWorktree, "worktree %s has uncommitted changes", wt)
		}
	}
	data := wuDoneData{ID: w.ID, Status: delivery.StatusDone, StampPath: delivery.StampRel(w.ID),
		SkippedGates: c.Bool("skip-gates")}
	if !data.SkippedGates {
		var notes ops.Notes
		run, err := ops.RunWUGates(ctx, ws, c.Runtime(), &notes, w, false, c.Stderr())
		c.Notes(notes)
		if err != nil {
			return err
		}
		if err := run.Err(); err != nil {
			return err
		}
		data.Gates = run.Results
	}
	branch := w.ClaimedBranch
	if w.ClaimedMode == "worktree" && branch != "" && g.BranchExists(ctx, branch) {
		if err := g.Merge(ctx, branch); err != nil {
			return err
		}
		data.MergedBranch = &branch
	}
	// Nothing was written before the merge succeeded; now the files change.
	now := c.Runtime().Now()
	w.Set("status", delivery.StrNode(delivery.StatusDone))
	w.Set("locked", delivery.BoolNode(true))
	w.Set("completed_at", delivery.TimestampNode(delivery.Timestamp(now)))
	w.Set("completed", delivery.DateNode(delivery.Date(now)))
	w.Delete("blocked_reason")
	w.Refresh()
	if err := delivery.WriteWU(ws.Root, w); err != nil {
		return err
	}
	if err := delivery.WriteStamp(ws.Root, w.ID, w.Title, delivery.Date(now)); err != nil {
		return err
	}
	if err := appendEvent(c, ws, delivery.Event{Type: delivery.EventComplete, WUID: w.ID}); err != nil {
		return err
	}
	if data.SkippedGates {
		rec := skipGatesRecord{Timestamp: delivery.Timestamp(now), WUID: w.ID, Reason: c.String("reason"), FixWU: c.Value("fix-wu")}
		if err := delivery.AppendJSONL(ws.Abs(delivery.SkipGatesAudit), rec); err != nil {
			return delivery.Errorf(tool.CodeIOError, "skip-gates audit: %w", err)
		}
	}
	subject := fmt.Sprintf("wu(%s): done - %s", strings.ToLower(w.ID), delivery.Title60(w.Title))
	if data.Commit, err = c.Commit(ws, subject, w.Path, data.StampPath, delivery.EventsFile); err != nil {
		return err
	}
	if wt != "" && !c.Bool("keep-worktree") {
		if err := g.WorktreeRemove(ctx, wt, false); err != nil {
			c.Warn("worktree %s not removed: %s", wt, delivery.AsError(err).Message)
		} else {
			data.WorktreeRemoved = true
			if err := g.BranchDelete(ctx, branch, false); err != nil {
				c.Warn("branch %s not deleted: %s", branch, delivery.AsError(err).Message)
			}
		}
	}
	if data.LockReleased, err = releaseLockFor(ws, w); err != nil {
		return err
	}
	return c.Result(fmt.Sprintf("Completed %s: %s", w.ID, w.Title), data)
}

// wuDoneData is wu:done's JSON data.
type wuDoneData struct {
	ID              string                `json:"id"`
	Status          string                `json:"status"`
	StampPath       string                `json:"stamp_path"`
	MergedBranch    *string               `json:"merged_branch"`
	WorktreeRemoved bool                  `json:"worktree_removed"`
	LockReleased    bool                  `json:"lock_released"`
	Gates           []delivery.GateResult `json:"gates"`
	SkippedGates    bool                  `json:"skipped_gates"`
	Commit          *convention.Commit    `json:"commit"`
}

// Committed gives the text renderer the commit for rule R4.
func (d wuDoneData) Committed() *convention.Commit { return d.Commit }
