package kernel

import (
	"errors"
	"fmt"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/kernel/lane"
	"github.com/cmdbridge/cmdbridge/kernel/sandbox"
	"github.com/cmdbridge/cmdbridge/tool/native"
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

// buildLanes makes the kernel's lanes: the built-in ones (each from its own package:
// adapter, tool/native, kernel/sandbox), then Config.Lanes in place of the built-in lane
// of the same name.
func (k *Kernel) buildLanes() error {
	if k.cfg.Legacy.Dir != "" || k.cfg.Legacy.Stdin != nil {
		// Silently ignoring them would run a command somewhere the host did not mean.
		return errors.New("legacy lane settings: Dir and Stdin are set per call (the workspace, Request.Stdin), not in Config.Legacy")
	}
	k.lanes = map[string]Lane{
		LaneAdapter:    adapter.NewLane(LaneAdapter, k.cfg.Commands, k.cfg.Legacy),
		LaneSubprocess: adapter.NewLane(LaneSubprocess, k.cfg.Commands, k.cfg.Legacy),
		LaneNative:     native.NewLane(k.cfg.Native, k.env),
		LaneSandbox:    sandbox.NewLane(k.cfg.Sandbox, k.cfg.Legacy.Env),
	}
	replaced := map[string]bool{}
	for _, l := range k.cfg.Lanes {
		name := l.Name()
		if _, ok := k.lanes[name]; !ok {
			return fmt.Errorf("lane %q: no such lane (want %s, %s, %s or %s)", name, LaneAdapter, LaneSubprocess, LaneNative, LaneSandbox)
		}
		if replaced[name] {
			return fmt.Errorf("lane %q: given twice", name)
		}
		replaced[name] = true
		k.lanes[name] = l
	}
	return nil
}
