package ops

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WURepairInput is wu:repair's input: one of ID, All and RepairState (the command's usage
// rules, the schema's).
type WURepairInput struct {
	ID          string
	All         bool
	RepairState bool
	// Check only reports what would be repaired, and fails (CHECK_FAILED, with the data)
	// when it finds anything.
	Check bool
}

// WURepair is corpus §3.1 wu:repair: with RepairState, the invalid lines of wu-events.jsonl
// dropped (a timestamped backup kept); otherwise each issue of the WU (or of every WU)
// repaired with the YAML as the truth (repairWU), in one commit. Notes.Text is the text
// report without its commit lines: the count ("<n> issue(s) found" for a check,
// "Repaired <n> issue(s)" otherwise), then one line per issue.
func WURepair(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WURepairInput) (WURepairData, Notes, error) {
	var notes Notes
	check := in.Check
	log, err := loadEvents(ws, &notes)
	if err != nil {
		return WURepairData{}, notes, err
	}
	data := WURepairData{Checked: []string{}, Issues: []WURepairIssue{}, InvalidEventLines: []int{}}
	for _, le := range log.Invalid() {
		data.InvalidEventLines = append(data.InvalidEventLines, le.N)
	}
	var text strings.Builder
	found, repaired := 0, 0
	if in.RepairState {
		found = len(data.InvalidEventLines)
		for _, n := range data.InvalidEventLines {
			fmt.Fprintf(&text, "  wu-events.jsonl line %d: %s\n", n, map[bool]string{true: "would be removed", false: "removed"}[check])
		}
		if !check && found > 0 {
			if err := repairEventLog(ws, rt, log); err != nil {
				return WURepairData{}, notes, err
			}
			repaired = found
			if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, "chore(repair): repair wu-events.jsonl", delivery.EventsFile); err != nil {
				return WURepairData{}, notes, err
			}
		}
	} else {
		wus, err := repairTargets(ws, &notes, in)
		if err != nil {
			return WURepairData{}, notes, err
		}
		var paths []string
		staged := map[string]bool{}
		repairedWUs := 0 // WUs with at least one repaired issue, for the --all subject
		for _, w := range wus {
			data.Checked = append(data.Checked, w.ID)
			res, err := repairWU(ctx, ws, rt, log, w, check)
			if err != nil {
				return WURepairData{}, notes, err
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
			if in.All {
				subject = fmt.Sprintf("chore(repair): repair %d wus", repairedWUs)
			}
			if data.Commit, err = CommitPaths(ctx, ws, rt, &notes, subject, paths...); err != nil {
				return WURepairData{}, notes, err
			}
		}
	}
	if check {
		notes.Text = fmt.Sprintf("%d issue(s) found\n", found) + text.String()
		if found > 0 {
			return data, notes, delivery.Errorf(tool.CodeCheckFailed, "%d issue(s) found", found)
		}
		return data, notes, nil
	}
	notes.Text = fmt.Sprintf("Repaired %d issue(s)\n", repaired) + text.String()
	return data, notes, nil
}

// repairTargets reads the WU named by ID, or every WU with All (a file that does not
// parse is a warning and is skipped: there is no YAML truth to repair towards).
func repairTargets(ws *delivery.Workspace, notes *Notes, in WURepairInput) ([]*delivery.WU, error) {
	if !in.All {
		w, err := delivery.ReadWU(ws, in.ID)
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
			notes.Warn("%s skipped: %s", f.ID, delivery.AsError(f.Err).Message)
			continue
		}
		out = append(out, f.WU)
	}
	return out, nil
}

// repairEventLog copies wu-events.jsonl to a timestamped backup (runtime state, never
// committed), then rewrites it with its valid lines only.
func repairEventLog(ws *delivery.Workspace, rt *delivery.Runtime, log *delivery.EventLog) error {
	orig, err := os.ReadFile(delivery.EventsPath(ws.Root))
	if err != nil {
		return delivery.Errorf(tool.CodeIOError, "read wu-events.jsonl: %w", err)
	}
	backup := delivery.EventsFile + ".bak-" + rt.Now().UTC().Format("20060102T150405Z")
	if err := storage.WriteFileAtomic(ws.Abs(backup), orig, 0o644); err != nil {
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
	issues []WURepairIssue
	paths  []string // committable paths written
}

// repairWU repairs (or, with check, only plans) each issue of one WU, in DiagnoseWU's
// order, the YAML being the truth. The event state is followed through the repairs so
// STATUS_MISMATCH and STAMP_EXISTS_YAML_NOT_DONE together append one consistent sequence.
// Files are written once, after every issue was planned.
func repairWU(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, log *delivery.EventLog, w *delivery.WU, check bool) (wuRepairResult, error) {
	var res wuRepairResult
	now := rt.Now()
	f := FactsOf(ws, rt, log, w)
	issues := DiagnoseWU(w, f)
	target := delivery.ReconcileTarget(w.Status)
	for _, is := range issues {
		if is.Code == IssueStampNotDone {
			target = delivery.StatusDone
		}
	}
	state := f.EventState
	var events []delivery.Event
	var stampDate, doneDate string
	for _, is := range issues {
		out := WURepairIssue{ID: w.ID, Code: is.Code, Repaired: !check}
		switch is.Code {
		case IssueStatusMismatch:
			types, ok := repairPath(state, target)
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
		case IssueStampNotDone:
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
		case IssueDoneNoStamp:
			stampDate = w.Completed
			if stampDate == "" && len(w.CompletedAt) >= 10 {
				stampDate = w.CompletedAt[:10]
			}
			if stampDate == "" {
				stampDate = delivery.Date(now)
			}
			out.Action = fmt.Sprintf("write stamp %s (completed %s)", delivery.StampRel(w.ID), stampDate)
		case IssueOrphanWorktree:
			out.Action = "remove worktree " + f.Worktree
			g := delivery.NewGit(ws.Root, rt)
			if !gitrepo.InWorkTree(ctx, ws.Root) || !RegisteredWorktree(ctx, g, ws.Root, f.Worktree) {
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
		w.Set("status", storage.StrNode(delivery.StatusDone))
		w.Set("completed", storage.DateNode(doneDate))
		w.Set("completed_at", storage.TimestampNode(doneDate+"T00:00:00.000Z"))
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

// WURepairIssue is one issue wu:repair found, and what it did (or would do) about it.
type WURepairIssue struct {
	ID       string `json:"id"`
	Code     string `json:"code"`
	Repaired bool   `json:"repaired"`
	Action   string `json:"action"`
}

// WURepairData is wu:repair's JSON data.
type WURepairData struct {
	Checked           []string        `json:"checked"`
	Issues            []WURepairIssue `json:"issues"`
	InvalidEventLines []int           `json:"invalid_event_lines"`
	Commit            *Commit         `json:"commit"`
}

// repairEdge is one event type and the event state it leads to from a given state.
type repairEdge struct {
	Type string
	To   string
}

// repairEdges are the moves the event types make along the allowed transitions of spec
// §1.5, in the order a shortest path prefers them on a tie. done is terminal.
var repairEdges = map[string][]repairEdge{
	delivery.StatusReady:      {{delivery.EventClaim, delivery.StatusInProgress}},
	delivery.StatusInProgress: {{delivery.EventBlock, delivery.StatusBlocked}, {delivery.EventComplete, delivery.StatusDone}, {delivery.EventRelease, delivery.StatusReady}},
	delivery.StatusBlocked:    {{delivery.EventUnblock, delivery.StatusInProgress}, {delivery.EventComplete, delivery.StatusDone}},
	"waiting":                 {{delivery.EventUnblock, delivery.StatusInProgress}, {delivery.EventComplete, delivery.StatusDone}},
}

// repairPath returns the event types of the shortest sequence that moves an event
// state from one state to another along the allowed transitions (wu:repair's
// STATUS_MISMATCH repair), and false when none exists (from done, or to a closed status).
// state:doctor --fix has its own (correctiveEvents), which also leads from no events.
func repairPath(from, to string) ([]string, bool) {
	if from == to {
		return []string{}, true
	}
	prev := map[string]repairEdge{}
	parent := map[string]string{}
	seen := map[string]bool{from: true}
	queue := []string{from}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, e := range repairEdges[cur] {
			if seen[e.To] {
				continue
			}
			seen[e.To], prev[e.To], parent[e.To] = true, e, cur
			if e.To == to {
				var path []string
				for s := to; s != from; s = parent[s] {
					path = append([]string{prev[s].Type}, path...)
				}
				return path, true
			}
			queue = append(queue, e.To)
		}
	}
	return nil, false
}
