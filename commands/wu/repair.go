package wu

import (
	"github.com/cmdbridge/cmdbridge/delivery"
)

// eventEdge is one event type and the event state it leads to from a given state.
type eventEdge struct {
	Type string
	To   string
}

// eventEdges are the moves the event types make along the allowed transitions of spec
// §1.5, in the order a shortest path prefers them on a tie. done is terminal.
var eventEdges = map[string][]eventEdge{
	delivery.StatusReady:      {{delivery.EventClaim, delivery.StatusInProgress}},
	delivery.StatusInProgress: {{delivery.EventBlock, delivery.StatusBlocked}, {delivery.EventComplete, delivery.StatusDone}, {delivery.EventRelease, delivery.StatusReady}},
	delivery.StatusBlocked:    {{delivery.EventUnblock, delivery.StatusInProgress}, {delivery.EventComplete, delivery.StatusDone}},
	"waiting":                 {{delivery.EventUnblock, delivery.StatusInProgress}, {delivery.EventComplete, delivery.StatusDone}},
}

// correctiveEvents returns the event types of the shortest sequence that moves an event
// state from one state to another along the allowed transitions (wu:repair's
// STATUS_MISMATCH repair), and false when none exists (from done, or to a closed status).
// TODO(delivery): move to delivery.CorrectiveEvents (state:doctor --fix needs it too).
func correctiveEvents(from, to string) ([]string, bool) {
	if from == to {
		return []string{}, true
	}
	prev := map[string]eventEdge{}
	parent := map[string]string{}
	seen := map[string]bool{from: true}
	queue := []string{from}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, e := range eventEdges[cur] {
			if seen[e.To] {
				continue
			}
			seen[e.To], prev[e.To], parent[e.To] = true, e, cur
			if e.To == to {
				var path []string
				for s := to; s != from; s = parent[s] {
					path = append([]string{prev[s].Type}, path...)
				}
				return path, true
			}
			queue = append(queue, e.To)
		}
	}
	return nil, false
}
