package flow

import (
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
)

// open opens the workspace and checks the keys every flow command reads.
func open(c *convention.Call) (*delivery.Workspace, error) {
	return c.Workspace(ops.FlowKeys...)
}

// loadWUs reads every WU spec; a file that does not parse is left out of the figures with
// a warning rather than failing the whole report.
func loadWUs(c *convention.Call, ws *delivery.Workspace) ([]*delivery.WU, error) {
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return nil, err
	}
	wus := make([]*delivery.WU, 0, len(files))
	for _, f := range files {
		if f.Err != nil {
			c.Warn("%s skipped: %v", f.ID, f.Err)
			continue
		}
		wus = append(wus, f.WU)
	}
	return wus, nil
}

// skipGateTimestamps reads the timestamps of the skip-gates audit records (spec §1.12).
func skipGateTimestamps(c *convention.Call, ws *delivery.Workspace) ([]string, error) {
	type audit struct {
		Timestamp string `json:"timestamp"`
	}
	recs, bad, err := delivery.ReadRecords[audit](ws.Abs(delivery.SkipGatesAudit), nil)
	if err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "read %s: %w", delivery.SkipGatesAudit, err)
	}
	for _, b := range bad {
		c.Warn("%s", b.Warning("skip-gates-audit.ndjson"))
	}
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Timestamp
	}
	return out, nil
}
