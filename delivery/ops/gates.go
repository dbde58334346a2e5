package ops

import (
	"context"
	"fmt"
	"io"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// GatesKeys are the configuration sections gates reads.
var GatesKeys = []string{"software_delivery.gates", "software_delivery.lanes", "software_delivery.git"}

// GatesInput is gates' input.
type GatesInput struct {
	// DocsOnly runs only the docs_only gates.
	DocsOnly bool
	// Only runs only these gates (in configuration order).
	Only []string
	// Output receives the gates' own stdout and stderr (the command's stderr).
	Output io.Writer
}

// GatesData is gates' JSON data.
type GatesData struct {
	Dir    string                `json:"dir"`
	WUID   *string               `json:"wu_id"`
	Lane   *string               `json:"lane"`
	Gates  []delivery.GateResult `json:"gates"`
	Passed bool                  `json:"passed"`
}

// Gates is corpus §3.2 gates: the selected gate commands run in order in the checkout the
// workspace was opened from (delivery.RunGates: no fail-fast, in the host's jail, one
// telemetry record each), the WU and lane taken from a lane branch's name. An unknown
// gate is VALIDATION and nothing runs; no gates configured is a warning and success. A
// gate that fails makes the run GATES_FAILED, returned with its data (the report says
// what ran). Notes.Text is the text report: "PASS <name>" or "FAIL <name> (exit <n>)"
// per gate, then "Gates passed" or "Gates failed (<f> of <n>)".
func Gates(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in GatesInput) (GatesData, Notes, error) {
	var notes Notes
	selected, err := delivery.SelectGates(ws.Config.Gates, in.DocsOnly, in.Only)
	if err != nil {
		return GatesData{}, notes, err
	}
	wuID, lane := delivery.LaneOfBranch(ctx, ws, ws.Checkout)
	data := GatesData{Dir: ws.Rel(ws.Checkout), WUID: wuID, Lane: lane, Gates: []delivery.GateResult{}, Passed: true}
	if len(ws.Config.Gates) == 0 {
		notes.Warn("no gates configured (software_delivery.gates.commands)")
		notes.Text = "Gates passed\n"
		return data, notes, nil
	}
	results, err := delivery.RunGates(ctx, delivery.GateRun{Dir: ws.Checkout, Output: orDiscard(in.Output),
		Now: rt.Now, TelemetryRoot: ws.Root, WUID: wuID, Lane: lane}, selected)
	if err != nil {
		return GatesData{}, notes, err
	}
	data.Gates = append(data.Gates, results...)
	failed := failedGates(results)
	notes.Text = GateLines(results)
	if failed > 0 {
		data.Passed = false
		notes.Text += fmt.Sprintf("Gates failed (%d of %d)\n", failed, len(results))
		return data, notes, &delivery.Error{Code: tool.CodeGatesFailed, Message: fmt.Sprintf("%d of %d gate(s) failed", failed, len(results))}
	}
	notes.Text += "Gates passed\n"
	return data, notes, nil
}
