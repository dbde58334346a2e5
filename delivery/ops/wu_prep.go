package ops

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// WUGateRun is what a WU's gate run did (RunWUGates).
type WUGateRun struct {
	// Dir is the root-relative directory the gates ran in ("." for the root).
	Dir     string
	Results []delivery.GateResult
	Failed  int
}

// Err is the run's GATES_FAILED error, or nil when every gate passed.
func (r *WUGateRun) Err() error {
	if r.Failed == 0 {
		return nil
	}
	return delivery.Errorf(tool.CodeGatesFailed, "gates failed (%d of %d)", r.Failed, len(r.Results))
}

// RunWUGates runs the configured gates (corpus §3.2) for w, in its worktree when it is
// claimed in worktree mode and the directory exists, else in the root; the WU and lane of
// the telemetry come from that checkout's branch. No gates configured is a warning and an
// empty run. out receives the gates' own output.
func RunWUGates(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, notes *Notes, w *delivery.WU, docsOnly bool, out io.Writer) (*WUGateRun, error) {
	if err := ws.Config.Check("software_delivery.gates"); err != nil {
		return nil, err
	}
	gates, err := delivery.SelectGates(ws.Config.Gates, docsOnly, nil)
	if err != nil {
		return nil, err
	}
	run := &WUGateRun{Dir: ".", Results: []delivery.GateResult{}}
	dir := ws.Root
	if wt := worktreeDir(ws, w); wt != "" {
		run.Dir, dir = wt, ws.Abs(wt)
	}
	if len(gates) == 0 {
		notes.Warn("no gates configured")
		return run, nil
	}
	wuID, lane := delivery.LaneOfBranch(ctx, ws, dir)
	results, err := delivery.RunGates(ctx, delivery.GateRun{Dir: dir, Output: orDiscard(out),
		Now: rt.Now, TelemetryRoot: ws.Root, WUID: wuID, Lane: lane}, gates)
	if err != nil {
		return nil, err
	}
	run.Results, run.Failed = results, failedGates(results)
	return run, nil
}

// failedGates counts the gates of a run that failed.
func failedGates(results []delivery.GateResult) int {
	n := 0
	for _, r := range results {
		if !r.Passed {
			n++
		}
	}
	return n
}

// orDiscard is w, or io.Discard when the caller wants no output.
func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// GateLines renders "PASS <name>" / "FAIL <name> (exit <code>)" per gate.
func GateLines(results []delivery.GateResult) string {
	var b strings.Builder
	for _, r := range results {
		if r.Passed {
			fmt.Fprintf(&b, "PASS %s\n", r.Name)
		} else {
			fmt.Fprintf(&b, "FAIL %s (exit %d)\n", r.Name, r.ExitCode)
		}
	}
	return b.String()
}

// WUPrepInput is wu:prep's input.
type WUPrepInput struct {
	ID       string
	DocsOnly bool
	// Output receives the gates' own output (the command's stderr).
	Output io.Writer
}

// WUPrepData is wu:prep's JSON data.
type WUPrepData struct {
	ID     string                `json:"id"`
	Dir    string                `json:"dir"`
	Gates  []delivery.GateResult `json:"gates"`
	Passed bool                  `json:"passed"`
	Next   *string               `json:"next"`
}

// WUPrep is corpus §3.1 wu:prep: the gates of an in_progress WU (INVALID_TRANSITION
// otherwise), run as RunWUGates runs them. A failed gate makes it GATES_FAILED, returned
// with its data. Notes.Text is the text output: the gate lines, then "Next: delivery
// wu:done --id <id>" when every gate passed.
func WUPrep(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in WUPrepInput) (WUPrepData, Notes, error) {
	var notes Notes
	w, err := delivery.ReadWU(ws, in.ID)
	if err != nil {
		return WUPrepData{}, notes, err
	}
	if w.NormStatus() != delivery.StatusInProgress {
		return WUPrepData{}, notes, delivery.Errorf(tool.CodeInvalidTransition, "%s is %s: wu:prep needs an in_progress WU", w.ID, w.NormStatus())
	}
	run, err := RunWUGates(ctx, ws, rt, &notes, w, in.DocsOnly, in.Output)
	if err != nil {
		return WUPrepData{}, notes, err
	}
	data := WUPrepData{ID: w.ID, Dir: run.Dir, Gates: run.Results, Passed: run.Failed == 0}
	notes.Text = GateLines(run.Results)
	if !data.Passed {
		return data, notes, run.Err()
	}
	next := "delivery wu:done --id " + w.ID
	data.Next = &next
	notes.Text += "Next: " + next + "\n"
	return data, notes, nil
}
