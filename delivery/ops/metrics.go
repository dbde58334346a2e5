package ops

import (
	"context"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// MetricsInput is metrics's input.
type MetricsInput struct {
	// Kind is the sections computed: delivery.MetricsAll, MetricsDORA, MetricsLanes or
	// MetricsFlow (its check is the shell's, in the argv phase).
	Kind string
	// Days is the window length in days, ending at Now.
	Days int
	// Now is the end of the window and the report's generated_at.
	Now time.Time
}

// Metrics is corpus §3.7 metrics: the DORA, lane and flow sections Kind asks for over the
// last Days days (delivery.ComputeMetrics). It never writes. WU files that do not parse
// and skip-gates audit lines that do not decode are warnings, in that order, and left out
// of the figures. The text layout is the command's to render from the data.
func Metrics(_ context.Context, ws *delivery.Workspace, in MetricsInput) (delivery.Metrics, Notes, error) {
	var notes Notes
	wus, err := flowWUs(ws, &notes)
	if err != nil {
		return delivery.Metrics{}, notes, err
	}
	skips, err := skipGateTimestamps(ws, &notes)
	if err != nil {
		return delivery.Metrics{}, notes, err
	}
	return delivery.ComputeMetrics(delivery.MetricsInput{Kind: in.Kind, Days: in.Days, Now: in.Now,
		Config: ws.Config, WUs: wus, SkipGates: skips}), notes, nil
}

// flowWUs reads every WU spec; a file that does not parse is left out of the figures with
// a warning rather than failing the whole report.
func flowWUs(ws *delivery.Workspace, notes *Notes) ([]*delivery.WU, error) {
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return nil, err
	}
	wus := make([]*delivery.WU, 0, len(files))
	for _, f := range files {
		if f.Err != nil {
			notes.Warn("%s skipped: %v", f.ID, f.Err)
			continue
		}
		wus = append(wus, f.WU)
	}
	return wus, nil
}

// skipGateTimestamps reads the timestamps of the skip-gates audit records (corpus §1.12).
func skipGateTimestamps(ws *delivery.Workspace, notes *Notes) ([]string, error) {
	type audit struct {
		Timestamp string `json:"timestamp"`
	}
	recs, bad, err := storage.ReadRecords[audit](ws.Abs(delivery.SkipGatesAudit), nil)
	if err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "read %s: %w", delivery.SkipGatesAudit, err)
	}
	for _, b := range bad {
		notes.Warn("%s", b.Warning("skip-gates-audit.ndjson"))
	}
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Timestamp
	}
	return out, nil
}
