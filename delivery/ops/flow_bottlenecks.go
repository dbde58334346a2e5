package ops

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// FlowKeys are the configuration sections the flow operations read.
var FlowKeys = []string{"software_delivery.directories", "software_delivery.lanes"}

// FlowBottlenecksInput is flow:bottlenecks's input.
type FlowBottlenecksInput struct {
	// Limit is the maximum number of bottlenecks listed (≥ 0; 0 lists none, the critical
	// path is still computed).
	Limit int
}

// FlowBottlenecks is corpus §3.7 flow:bottlenecks: the open WUs ranked by how many open WUs
// they transitively block, and the critical path (delivery.FindBottlenecks). WU files that
// do not parse are warnings and left out of the graph. The text table is the command's to
// render from the data.
func FlowBottlenecks(_ context.Context, ws *delivery.Workspace, in FlowBottlenecksInput) (delivery.Bottlenecks, Notes, error) {
	var notes Notes
	files, err := delivery.ListWUs(ws)
	if err != nil {
		return delivery.Bottlenecks{}, notes, err
	}
	wus := make([]*delivery.WU, 0, len(files))
	for _, f := range files {
		if f.Err != nil {
			notes.Warn("%s skipped: %v", f.ID, f.Err)
			continue
		}
		wus = append(wus, f.WU)
	}
	return delivery.FindBottlenecks(wus, in.Limit), notes, nil
}
