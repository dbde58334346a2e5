package kernel

import (
	"fmt"

	"github.com/cmdbridge/cmdbridge/kernel/lane"
)

// The lane contract lives in package kernel/lane, which imports no lane and not the
// kernel; these are its names here.
type (
	// Lane runs calls the kernel has already governed, validated, scoped and recorded
	// (lane.Lane).
	Lane = lane.Lane
	// LaneCall is one resolved call, as the kernel hands it to a lane (lane.Call).
	LaneCall = lane.Call
	// LaneNotes are what a call's lanes record for the receipt (lane.Notes).
	LaneNotes = lane.Notes
	// Caller is who calls, from the surface's authentication (lane.Caller).
	Caller = lane.Caller
)

// buildLanes takes Config.Lanes as the kernel's lanes by name: each of a known name,
// none twice. The kernel builds none of its own (package kernel/assemble does).
func (k *Kernel) buildLanes() error {
	k.lanes = make(map[string]Lane, len(k.cfg.Lanes))
	for _, l := range k.cfg.Lanes {
		name := l.Name()
		switch name {
		case LaneAdapter, LaneSubprocess, LaneNative, LaneSandbox:
		default:
			return fmt.Errorf("lane %q: no such lane (want %s, %s, %s or %s)", name, LaneAdapter, LaneSubprocess, LaneNative, LaneSandbox)
		}
		if _, dup := k.lanes[name]; dup {
			return fmt.Errorf("lane %q: given twice", name)
		}
		k.lanes[name] = l
	}
	return nil
}
