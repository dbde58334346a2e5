package state

import (
	"github.com/cmdbridge/cmdbridge/delivery"
)

// reconcileReason is the reason of the block and release events a reconciliation appends
// (spec §3.1 wu:repair, whose fixes state:doctor --fix applies).
const reconcileReason = "wu:repair reconcile"

// eventEdges are the events that move an event state along an allowed transition (spec
// §1.5/§1.7). The empty state (a WU without events) only needs complete to become done.
var eventEdges = map[string][]struct{ typ, to string }{
	"":                        {{delivery.EventComplete, delivery.StatusDone}},
	delivery.StatusReady:      {{delivery.EventClaim, delivery.StatusInProgress}},
	delivery.StatusInProgress: {{delivery.EventBlock, delivery.StatusBlocked}, {delivery.EventRelease, delivery.StatusReady}, {delivery.EventComplete, delivery.StatusDone}},
	delivery.StatusBlocked:    {{delivery.EventUnblock, delivery.StatusInProgress}, {delivery.EventComplete, delivery.StatusDone}},
	delivery.StatusWaiting:    {{delivery.EventUnblock, delivery.StatusInProgress}, {delivery.EventComplete, delivery.StatusDone}},
}

// correctiveEvents is the shortest sequence of events that moves a WU's event state from
// `from` ("" when it has no events) to `to`, stamped at ts, or false when there is none
// (nothing leaves done, and no event produces closed).
// TODO(delivery): move to delivery.CorrectiveEvents (wu:repair needs it too).
func correctiveEvents(w *delivery.WU, from, to, ts string) ([]delivery.Event, bool) {
	if from == to {
		return nil, true
	}
	type step struct {
		state string
		path  []string
	}
	seen := map[string]bool{from: true}
	queue := []step{{from, nil}}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, e := range eventEdges[cur.state] {
			if seen[e.to] {
				continue
			}
			path := append(append([]string(nil), cur.path...), e.typ)
			if e.to == to {
				return eventsOf(w, path, ts), true
			}
			seen[e.to] = true
			queue = append(queue, step{e.to, path})
		}
	}
	return nil, false
}

// eventsOf builds the events of the given types for w, with the fields each type needs.
func eventsOf(w *delivery.WU, types []string, ts string) []delivery.Event {
	out := make([]delivery.Event, len(types))
	for i, t := range types {
		e := delivery.Event{Type: t, WUID: w.ID, Timestamp: ts}
		switch t {
		case delivery.EventCreate, delivery.EventClaim:
			e.Lane, e.Title = w.Lane, w.Title
		case delivery.EventBlock, delivery.EventRelease:
			e.Reason = reconcileReason
		}
		out[i] = e
	}
	return out
}

// stampDateFor is the completion date a missing stamp gets: completed, else the date of
// completed_at, else today (spec §3.1 wu:repair).
func stampDateFor(w *delivery.WU, today string) string {
	if w.Completed != "" {
		return w.Completed
	}
	if t, ok := delivery.CompletedAt(w); ok { // a date in completed_at counts too, as in wu:repair
		return delivery.Date(t)
	}
	return today
}

// markDone sets a WU's YAML to done as of a stamp date: completed is the date and
// completed_at its midnight (spec §3.1 wu:repair, STAMP_EXISTS_YAML_NOT_DONE).
func markDone(w *delivery.WU, date string) {
	w.Set("status", delivery.StrNode(delivery.StatusDone))
	w.Set("completed", delivery.DateNode(date))
	w.Set("completed_at", delivery.TimestampNode(date+"T00:00:00.000Z"))
	w.Refresh()
}
