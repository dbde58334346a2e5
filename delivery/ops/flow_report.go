package ops

import (
	"context"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// FlowReportInput is flow:report's input. The dates are days at 00:00Z; the zero time is
// an absent flag (the date forms are the shell's check, in the argv phase).
type FlowReportInput struct {
	// Start is the first day of the window; when set, Days is ignored.
	Start time.Time
	// End is the last day of the window (default: the day of Now with Start, Now without).
	End time.Time
	// Days is the window length in days, ending now (or with the day End names).
	Days int
	// Now is the call's clock.
	Now time.Time
}

// FlowReportWindow applies corpus §3.7 flow:report's flag rules: Start (with End, default
// today) gives a date window; otherwise the window is the last Days days ending now, or
// ending with the day End names. A start after the end is VALIDATION. It reads nothing, so
// the shells check it before the workspace is looked for.
func FlowReportWindow(in FlowReportInput) (delivery.Window, error) {
	end, hasEnd := in.End, !in.End.IsZero()
	if !in.Start.IsZero() {
		if !hasEnd {
			end = in.Now
		}
		win := delivery.DateWindow(in.Start, end)
		if win.Start.After(win.End) {
			return win, delivery.Errorf(tool.CodeValidation, "--start %s is after the end of the window %s",
				delivery.Date(in.Start), delivery.Date(end))
		}
		return win, nil
	}
	now := in.Now
	if hasEnd {
		now = delivery.DateWindow(end, end).End
	}
	return delivery.DaysWindow(now, in.Days), nil
}

// FlowReport is corpus §3.7 flow:report: the gate runs recorded in the window and the WUs
// completed in it (delivery.BuildFlowReport) over win (FlowReportWindow). It never writes.
// Gate telemetry lines that do not decode and WU files that do not parse are warnings, in
// that order, and left out. The text layout is the command's to render from the data.
func FlowReport(_ context.Context, ws *delivery.Workspace, win delivery.Window) (delivery.FlowReport, Notes, error) {
	var notes Notes
	gates, bad, err := storage.ReadRecords[delivery.GateTelemetry](ws.Abs(delivery.GatesTelemetry), nil)
	if err != nil {
		return delivery.FlowReport{}, notes, delivery.Errorf(tool.CodeIOError, "read %s: %w", delivery.GatesTelemetry, err)
	}
	for _, b := range bad {
		notes.Warn("%s", b.Warning("gates.ndjson"))
	}
	wus, err := flowWUs(ws, &notes)
	if err != nil {
		return delivery.FlowReport{}, notes, err
	}
	return delivery.BuildFlowReport(win, gates, wus), notes, nil
}
