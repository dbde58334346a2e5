package kernel

import "github.com/cmdbridge/cmdbridge/kernel/lane"

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
