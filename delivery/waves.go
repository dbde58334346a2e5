package delivery

import (
	"sort"
	"strings"

	"github.com/cmdbridge/cmdbridge/tool"
)

// Deferral is a ready WU held back because it waits for unfinished work.
type Deferral struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// WavePlan is the execution plan of an initiative (corpus §3.5 orchestrate:initiative).
type WavePlan struct {
	// Waves are the topological layers of the candidates, at most one WU per lane each.
	Waves [][]string
	// Skipped are the done WUs.
	Skipped []string
	// Deferred are ready WUs waiting for unfinished work outside the plan.
	Deferred []Deferral
}

// finished reports whether a WU no longer holds anything back (done or closed).
func finished(w *WU) bool {
	s := w.NormStatus()
	return s == StatusDone || s == StatusClosed
}

// PlanWaves computes the wave plan of an initiative's WUs. all is every WU of the
// workspace (to judge blockers outside the initiative; an unknown blocker counts as
// unfinished). Done WUs are skipped; a ready WU whose blocked_by names an unfinished WU
// outside the initiative, or a deferred WU, is deferred; the remaining ready WUs are
// layered with Kahn's algorithm over their blocked_by edges, in ascending id order, with
// at most one WU per lane per wave (the overflow moves to the next wave). WUs that are in
// progress or blocked take no part. A cycle among the candidates is VALIDATION naming
// the cycle's ids in order; nothing is computed then.
func PlanWaves(initWUs []*WU, all []*WU) (*WavePlan, error) {
	plan := &WavePlan{Waves: [][]string{}, Skipped: []string{}, Deferred: []Deferral{}}
	inInit := map[string]*WU{}
	for _, w := range initWUs {
		inInit[w.ID] = w
	}
	byID := map[string]*WU{}
	for _, w := range all {
		byID[w.ID] = w
	}
	ordered := append([]*WU(nil), initWUs...)
	sort.SliceStable(ordered, func(i, j int) bool { return ordered[i].Number() < ordered[j].Number() })

	// Deferral: outside blockers first, then propagated through in-initiative edges
	// until nothing changes (a WU waiting for a deferred WU cannot start either).
	deferred := map[string][]string{}
	for _, w := range ordered {
		if w.NormStatus() == StatusDone {
			plan.Skipped = append(plan.Skipped, w.ID)
		}
		if w.NormStatus() != StatusReady {
			continue
		}
		for _, b := range w.BlockedBy {
			if _, inside := inInit[b]; inside {
				continue
			}
			if bw, ok := byID[b]; !ok || !finished(bw) {
				deferred[w.ID] = append(deferred[w.ID], b)
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, w := range ordered {
			if w.NormStatus() != StatusReady || deferred[w.ID] != nil {
				continue
			}
			for _, b := range w.BlockedBy {
				if deferred[b] != nil {
					deferred[w.ID] = append(deferred[w.ID], b)
					changed = true
				}
			}
		}
	}
	var cands []*WU
	for _, w := range ordered {
		if w.NormStatus() != StatusReady {
			continue
		}
		if ids := deferred[w.ID]; ids != nil {
			plan.Deferred = append(plan.Deferred, Deferral{ID: w.ID, Reason: "waits for " + strings.Join(ids, ", ")})
			continue
		}
		cands = append(cands, w)
	}

	// Kahn over edges between candidates only: blockers already in progress or blocked
	// inside the initiative are being worked on and do not order the plan.
	isCand := map[string]bool{}
	for _, w := range cands {
		isCand[w.ID] = true
	}
	indeg := map[string]int{}
	dependents := map[string][]string{}
	for _, w := range cands {
		seen := map[string]bool{}
		for _, b := range w.BlockedBy {
			if isCand[b] && !seen[b] {
				seen[b] = true
				indeg[w.ID]++
				dependents[b] = append(dependents[b], w.ID)
			}
		}
	}
	var ready []*WU
	for _, w := range cands {
		if indeg[w.ID] == 0 {
			ready = append(ready, w)
		}
	}
	placed := 0
	for len(ready) > 0 {
		sort.SliceStable(ready, func(i, j int) bool { return ready[i].Number() < ready[j].Number() })
		lanes := map[string]bool{}
		var wave []string
		var next []*WU
		for _, w := range ready {
			if lanes[w.Lane] {
				next = append(next, w)
				continue
			}
			lanes[w.Lane] = true
			wave = append(wave, w.ID)
		}
		for _, id := range wave {
			for _, d := range dependents[id] {
				if indeg[d]--; indeg[d] == 0 {
					next = append(next, inInit[d])
				}
			}
		}
		placed += len(wave)
		plan.Waves = append(plan.Waves, wave)
		ready = next
	}
	if placed < len(cands) {
		cycle := findCycle(cands, isCand, indeg)
		msg := "dependency cycle: " + strings.Join(cycle, " -> ")
		return nil, Errorf(tool.CodeValidation, "%s", msg).WithDetails(map[string]any{
			"errors": []string{msg}, "cycle": cycle[:len(cycle)-1]})
	}
	return plan, nil
}

// findCycle walks blocked_by edges among the candidates left unplaced (indegree > 0),
// from the lowest id, until a WU repeats, and returns the cycle closed on its first id
// (WU-1 -> WU-2 -> WU-1).
func findCycle(cands []*WU, isCand map[string]bool, indeg map[string]int) []string {
	byID := map[string]*WU{}
	var start *WU
	for _, w := range cands {
		byID[w.ID] = w
		if indeg[w.ID] > 0 && start == nil {
			start = w
		}
	}
	pos := map[string]int{}
	var path []string
	for w := start; w != nil; {
		if i, ok := pos[w.ID]; ok {
			cycle := append([]string(nil), path[i:]...)
			return append(cycle, w.ID)
		}
		pos[w.ID] = len(path)
		path = append(path, w.ID)
		var next *WU
		blockers := append([]string(nil), w.BlockedBy...)
		SortWUIDs(blockers)
		for _, b := range blockers {
			// Every unplaced WU has an unplaced candidate blocker, so the walk never ends
			// outside a cycle.
			if isCand[b] && indeg[b] > 0 {
				next = byID[b]
				break
			}
		}
		w = next
	}
	return path
}
