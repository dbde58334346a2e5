package wu

import (
	"fmt"
	"os"
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
	commands.Register(legacy.Command{Name: "wu:repair",
		New: newWURepairApp, Main: convention.Main(newWURepairApp)})
}

func newWURepairApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:repair",
		Usage: "Repair inconsistencies automatically, treating the YAML as the source of truth",
		Flags: []cli.Flag{
			convention.WU("id", "WU to repair", false),
			&cli.BoolFlag{Name: "all", Usage: "repair every WU"},
			&cli.BoolFlag{Name: "repair-state", Usage: "drop the invalid lines of wu-events.jsonl (a backup is kept)"},
			&cli.BoolFlag{Name: "check", Usage: "only report what would be repaired (read-only; fails if anything is found)"},
		},
		Rules: []convention.Rule{
			convention.Exclusive("id", "all"), convention.Exclusive("id", "repair-state"),
			convention.Exclusive("all", "repair-state"), convention.OneOf("id", "all", "repair-state"),
		},
		Destructive: true,
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("check"))},
		Action:      wuRepair,
	})
}

func wuRepair(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	check := c.Bool("check")
	log, err := loadEvents(c, ws)
	if err != nil {
		return err
	}
	data := wuRepairData{Checked: []string{}, Issues: []wuRepairIssue{}, InvalidEventLines: []int{}}
	for _, le := range log.Invalid() {
		data.InvalidEventLines = append(data.InvalidEventLines, le.N)
	}
	var text strings.Builder
	found, repaired := 0, 0
	if c.Bool("repair-state") {
		found = len(data.InvalidEventLines)
		for _, n := range data.InvalidEventLines {
			fmt.Fprintf(&text, "  wu-events.jsonl line %d: %s\n", n, map[bool]string{true: "would be removed", false: "removed"}[check])
		}
		if !check && found > 0 {
			if err := repairEventLog(c, ws, log); err != nil {
				return err
			}
			repaired = found
			if data.Commit, err = c.Commit(ws, "chore(repair): repair wu-events.jsonl", delivery.EventsFile); err != nil {
				return err
			}
		}
	} else {
		wus, err := repairTargets(c, ws)
		if err != nil {
			return err
		}
		var paths []string
		staged := map[string]bool{}
		repairedWUs := 0 // WUs with at least one repaired issue, for the --all subject
		for _, w := range wus {
			data.Checked = append(data.Checked, w.ID)
			res, err := repairWU(c, ws, log, w, check)
			if err != nil {
				return err
			}
			data.Issues = append(data.Issues, res.issues...)
			for _, is := range res.issues {
				if is.Repaired {
					repairedWUs++
					break
				}
			}
			for _, p := range res.paths {
				// A set, not a scan of paths: --all may write thousands of files.
				if !staged[p] {
					staged[p] = true
					paths = append(paths, p)
				}
			}
		}
		for _, is := range data.Issues {
			found++
			if is.Repaired {
				repaired++
			}
			fmt.Fprintf(&text, "  %s %s: %s\n", is.ID, is.Code, is.Action)
		}
		if len(paths) > 0 {
			subject := fmt.Sprintf("fix(%s): repair state inconsistency", strings.ToLower(wus[0].ID))
			if c.Bool("all") {
				subject = fmt.Sprintf("chore(repair): repair %d wus", repairedWUs)
			}
			if data.Commit, err = c.Commit(ws, subject, paths...); err != nil {
				return err
			}
		}
	}
	if check {
		out := fmt.Sprintf("%d issue(s) found\n", found) + text.String()
		if found == 0 {
			return c.Print(out, data)
		}
		// A check reports what it found on stdout even when it fails.
		if !c.JSON {
			if err := c.Print(out, nil); err != nil {
				return err
			}
		}
		c.Partial(data)
		return c.Failf(tool.CodeCheckFailed, "%d issue(s) found", found)
	}
	return c.Print(fmt.Sprintf("Repaired %d issue(s)\n", repaired)+text.String()+convention.CommitLines(data.Commit), data)
}

// repairTargets reads the WU named by --id, or every WU with --all (a file that does not
// parse is a warning and is skipped: there is no YAML truth to repair towards).
func repairTargets(c *convention.Call, ws *delivery.Workspace) ([]*delivery.WU, error) {
	if !c.Bool("all") {
		w, err := delivery.ReadWU(ws, c.Value("id"))
		if err != nil {
			return nil, err
		}
		return []*delivery.WU{w}, nil
	}
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return nil, err
	}
	var out []*delivery.WU
	for _, f := range files {
		if f.WU == nil {
			c.Warn("%s skipped: %s", f.ID, delivery.AsError(f.Err).Message)
			continue
		}
		out = append(out, f.WU)
	}
	return out, nil
}

// repairEventLog copies wu-events.jsonl to a timestamped backup (runtime state, never
// committed), then rewrites it with its valid lines only.
func repairEventLog(c *convention.Call, ws *delivery.Workspace, log *delivery.EventLog) error {
	orig, err := os.ReadFile(delivery.EventsPath(ws.Root))
	if err != nil {
		return delivery.Errorf(tool.CodeIOError, "read wu-events.jsonl: %w", err)
	}
	backup := delivery.EventsFile + ".bak-" + c.Runtime().Now().UTC().Format("20060102T150405Z")
	if err := delivery.WriteFileAtomic(ws.Abs(backup), orig, 0o644); err != nil {
		return delivery.Errorf(tool.CodeIOError, "write backup %s: %w", backup, err)
	}
	var keep [][]byte
	for _, ln := range log.Lines {
		if ln.Err == nil {
			keep = append(keep, ln.Raw)
		}
	}
	return delivery.RewriteEvents(ws.Root, keep)
}

// wuRepairResult is what repairing one WU found and changed.
type wuRepairResult struct {
	issues []wuRepairIssue
	paths  []string // committable paths written
}

// repairWU repairs (or, with check, only plans) each issue of one WU, in ops.DiagnoseWU's
// order, the YAML being the truth. The event state is followed through the repairs so
// STATUS_MISMATCH and STAMP_EXISTS_YAML_NOT_DONE together append one consistent sequence.
// Files are written once, after every issue was planned.
func repairWU(c *convention.Call, ws *delivery.Workspace, log *delivery.EventLog, w *delivery.WU, check bool) (wuRepairResult, error) {
	var res wuRepairResult
	ctx := c.Context()
	now := c.Runtime().Now()
	f := ops.FactsOf(ws, c.Runtime(), log, w)
	issues := ops.DiagnoseWU(w, f)
	target := delivery.ReconcileTarget(w.Status)
	for _, is := range issues {
		if is.Code == ops.IssueStampNotDone {
			target = delivery.StatusDone
		}
	}
	state := f.EventState
	var events []delivery.Event
	var stampDate, doneDate string
	for _, is := range issues {
		out := wuRepairIssue{ID: w.ID, Code: is.Code, Repaired: !check}
		switch is.Code {
		case ops.IssueStatusMismatch:
			types, ok := correctiveEvents(state, target)
			switch {
			case !ok && state == delivery.StatusDone:
				out.Repaired, out.Action = false, "not repaired: the event state is done (terminal)"
			case !ok:
				out.Repaired, out.Action = false, fmt.Sprintf("not repaired: no events lead from %s to %s", state, target)
			case len(types) == 0:
				out.Action = "resolved by setting the YAML to done"
			default:
				for _, t := range types {
					events = append(events, correctiveEvent(w, t))
				}
				state = target
				out.Action = "append events: " + strings.Join(types, ", ")
			}
		case ops.IssueStampNotDone:
			doneDate = delivery.StampDate(ws.Root, w.ID)
			if doneDate == "" {
				doneDate = delivery.Date(now)
			}
			out.Action = fmt.Sprintf("set YAML to done (completed %s)", doneDate)
			if state != delivery.StatusDone {
				events = append(events, delivery.Event{Type: delivery.EventComplete, WUID: w.ID})
				state = delivery.StatusDone
				out.Action += ", append event: complete"
			}
		case ops.IssueDoneNoStamp:
			stampDate = w.Completed
			if stampDate == "" && len(w.CompletedAt) >= 10 {
				stampDate = w.CompletedAt[:10]
			}
			if stampDate == "" {
				stampDate = delivery.Date(now)
			}
			out.Action = fmt.Sprintf("write stamp %s (completed %s)", delivery.StampRel(w.ID), stampDate)
		case ops.IssueOrphanWorktree:
			out.Action = "remove worktree " + f.Worktree
			g := delivery.NewGit(ws.Root, c.Runtime())
			if !delivery.InWorkTree(ctx, ws.Root) || !registeredWorktree(ctx, g, ws.Root, f.Worktree) {
				out.Repaired, out.Action = false, fmt.Sprintf("not repaired: %s is not a registered git worktree", f.Worktree)
			} else if !check {
				if err := g.WorktreeRemove(ctx, f.Worktree, false); err != nil {
					out.Repaired, out.Action = false, "not repaired: "+delivery.AsError(err).Message
				}
			}
		default: // MISSING_WORKTREE_CLAIMED, LOCK_MISSING, STALE_LOCK: wu:recover's job.
			out.Repaired, out.Action = false, "not repaired: use wu:recover --action resume"
		}
		res.issues = append(res.issues, out)
	}
	if check {
		return res, nil
	}
	if doneDate != "" {
		w.Set("status", delivery.StrNode(delivery.StatusDone))
		w.Set("completed", delivery.DateNode(doneDate))
		w.Set("completed_at", delivery.TimestampNode(doneDate+"T00:00:00.000Z"))
		w.Refresh()
		if err := delivery.WriteWU(ws.Root, w); err != nil {
			return res, err
		}
		res.paths = append(res.paths, w.Path)
	}
	if stampDate != "" {
		if err := delivery.WriteStamp(ws.Root, w.ID, w.Title, stampDate); err != nil {
			return res, err
		}
		res.paths = append(res.paths, delivery.StampRel(w.ID))
	}
	if len(events) > 0 {
		ts := delivery.Timestamp(now)
		for i := range events {
			events[i].Timestamp = ts
		}
		if err := delivery.AppendEvents(ws.Root, events...); err != nil {
			return res, err
		}
		res.paths = append(res.paths, delivery.EventsFile)
	}
	return res, nil
}

// correctiveEvent builds one event of a STATUS_MISMATCH repair (reason "wu:repair
// reconcile" where the type needs one).
func correctiveEvent(w *delivery.WU, typ string) delivery.Event {
	ev := delivery.Event{Type: typ, WUID: w.ID}
	switch typ {
	case delivery.EventClaim, delivery.EventCreate:
		ev.Lane, ev.Title = w.Lane, w.Title
	case delivery.EventBlock, delivery.EventRelease:
		ev.Reason = reconcileReason
	}
	return ev
}

// wuRepairIssue is one issue wu:repair found, and what it did (or would do) about it.
type wuRepairIssue struct {
	ID       string `json:"id"`
	Code     string `json:"code"`
	Repaired bool   `json:"repaired"`
	Action   string `json:"action"`
}

// wuRepairData is wu:repair's JSON data.
type wuRepairData struct {
	Checked           []string           `json:"checked"`
	Issues            []wuRepairIssue    `json:"issues"`
	InvalidEventLines []int              `json:"invalid_event_lines"`
	Commit            *convention.Commit `json:"commit"`
}
