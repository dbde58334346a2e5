package flow

import (
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
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
