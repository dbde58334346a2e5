package kernel

import "sync"

// State is where a call is in its life.
type State uint8

// States of a call. Admitted and Running are live; the others are terminal.
const (
	Admitted State = iota
	Running
	Done
	Refused
	TimedOut
	Cancelled
)

var stateNames = [...]string{"admitted", "running", "done", "refused", "timed_out", "cancelled"}

func (s State) String() string { return stateNames[s] }

// Terminal reports whether no event can move s.
func (s State) Terminal() bool { return s >= Done }

// Event is something that happens to a call.
type Event uint8

// Events of a call.
const (
	EvRefuse   Event = iota // a pipeline step refused the call
	EvDispatch              // the call was handed to its lane
	EvComplete              // the lane returned an Output
	EvTimeout               // the call's deadline passed
	EvCancel                // the caller or the run was cancelled
)

var eventNames = [...]string{"refuse", "dispatch", "complete", "timeout", "cancel"}

func (e Event) String() string { return eventNames[e] }

// States and Events list every value, for exhaustive tests.
var (
	States = []State{Admitted, Running, Done, Refused, TimedOut, Cancelled}
	Events = []Event{EvRefuse, EvDispatch, EvComplete, EvTimeout, EvCancel}
)

// Next is the call state machine: the state after e happens in s, and whether e is
// allowed there. Terminal states accept nothing, so the first terminal event wins.
func Next(s State, e Event) (State, bool) {
	switch s {
	case Admitted:
		switch e {
		case EvRefuse:
			return Refused, true
		case EvDispatch:
			return Running, true
		case EvTimeout:
			return TimedOut, true
		case EvCancel:
			return Cancelled, true
		}
	case Running:
		switch e {
		case EvComplete:
			return Done, true
		case EvTimeout:
			return TimedOut, true
		case EvCancel:
			return Cancelled, true
		}
	}
	return s, false
}

// machine guards one call's state.
type machine struct {
	mu    sync.Mutex
	state State
}

// fire applies e and reports whether it was allowed.
func (m *machine) fire(e Event) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	next, ok := Next(m.state, e)
	if ok {
		m.state = next
	}
	return ok
}
