package delivery

import (
	"sort"
)

// StatusCounts counts WUs per normalised status.
type StatusCounts struct {
	Ready      int `json:"ready"`
	InProgress int `json:"in_progress"`
	Blocked    int `json:"blocked"`
	Done       int `json:"done"`
	Closed     int `json:"closed"`
}

func (c *StatusCounts) add(status string) {
	switch status {
	case StatusReady:
		c.Ready++
	case StatusInProgress:
		c.InProgress++
	case StatusBlocked:
		c.Blocked++
	case StatusDone:
		c.Done++
	case StatusClosed:
		c.Closed++
	}
}

// BoardWU is one WU on the board.
type BoardWU struct {
	ID         string `json:"id"`
	Title      string `json:"title"`
	Status     string `json:"status"`
	Priority   string `json:"priority"`
	Consistent bool   `json:"consistent"`
}

// BoardLane is one lane of the board.
type BoardLane struct {
	Lane     string       `json:"lane"`
	WIPLimit int          `json:"wip_limit"`
	Counts   StatusCounts `json:"counts"`
	WUs      []BoardWU    `json:"wus"`
}

// Board is the backlog:status data: lanes in definition order, then undefined lanes
// alphabetically; WUs by priority then numeric id; counts cover every WU, listed or not.
type Board struct {
	Lanes  []BoardLane  `json:"lanes"`
	Totals StatusCounts `json:"totals"`
}

// BuildBoard groups wus by lane. list decides which WUs are listed (nil lists all);
// replay is the event log's Replay() used for the consistency flag.
func BuildBoard(cfg *Config, wus []*WU, replay map[string]string, list func(*WU) bool) Board {
	byLane := map[string]*BoardLane{}
	var order []string
	for _, l := range cfg.Lanes {
		byLane[l.Name] = &BoardLane{Lane: l.Name, WIPLimit: l.WIPLimit, WUs: []BoardWU{}}
		order = append(order, l.Name)
	}
	var undefined []string
	prio := map[string]int{"P0": 0, "P1": 1, "P2": 2, "P3": 3}
	sorted := append([]*WU(nil), wus...)
	sort.SliceStable(sorted, func(i, j int) bool {
		pi, oki := prio[sorted[i].Priority]
		pj, okj := prio[sorted[j].Priority]
		if !oki {
			pi = 2 // the default priority
		}
		if !okj {
			pj = 2
		}
		if pi != pj {
			return pi < pj
		}
		return sorted[i].Number() < sorted[j].Number()
	})
	b := Board{}
	for _, w := range sorted {
		bl, ok := byLane[w.Lane]
		if !ok {
			bl = &BoardLane{Lane: w.Lane, WIPLimit: 1, WUs: []BoardWU{}}
			byLane[w.Lane] = bl
			undefined = append(undefined, w.Lane)
		}
		s := w.NormStatus()
		bl.Counts.add(s)
		b.Totals.add(s)
		if list != nil && !list(w) {
			continue
		}
		state, has := replay[w.ID]
		bl.WUs = append(bl.WUs, BoardWU{ID: w.ID, Title: w.Title, Status: s, Priority: w.Priority, Consistent: Consistent(state, has, w.Status)})
	}
	sort.Strings(undefined)
	for _, name := range append(order, undefined...) {
		b.Lanes = append(b.Lanes, *byLane[name])
	}
	if b.Lanes == nil {
		b.Lanes = []BoardLane{}
	}
	return b
}
