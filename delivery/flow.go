package delivery

import (
	"math"
	"sort"
	"time"
)

// Window is the closed reporting interval of corpus §3.7: [Start, End].
type Window struct {
	Start, End time.Time
}

// DaysWindow is [end − days, end].
func DaysWindow(end time.Time, days int) Window {
	return Window{Start: end.Add(-time.Duration(days) * 24 * time.Hour), End: end}
}

// DateWindow is [start 00:00Z, end 23:59:59.999Z] for two dates (only their UTC day counts).
func DateWindow(start, end time.Time) Window {
	s := time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, time.UTC)
	e := time.Date(end.Year(), end.Month(), end.Day(), 0, 0, 0, 0, time.UTC)
	return Window{Start: s, End: e.Add(24*time.Hour - time.Millisecond)}
}

// Contains reports whether t lies in the window, both ends included.
func (w Window) Contains(t time.Time) bool { return !t.Before(w.Start) && !t.After(w.End) }

// CompletedAt is when a WU was completed: completed_at, else the completed date at 00:00Z
// (a completed_at holding only a date counts as that date). ok is false when neither
// parses.
func CompletedAt(w *WU) (time.Time, bool) {
	at, _, ok := completion(w)
	return at, ok
}

// completion is CompletedAt, and whether the completion carries a time of day or only a
// date (legacy and hand-edited specs record `completed: <date>` and nothing else).
func completion(w *WU) (at time.Time, timed, ok bool) {
	if t, err := ParseTimestamp(w.CompletedAt); err == nil {
		return t.UTC(), true, true
	}
	for _, d := range []string{w.Completed, w.CompletedAt} {
		if t, err := time.Parse(DateLayout, d); err == nil {
			return t, false, true
		}
	}
	return time.Time{}, false, false
}

// CompletedBy is the latest instant a WU's completion can have happened: completed_at,
// or the end (23:59:59.999Z) of the completion date when only a date is known. Durations
// that start at the claim use it, so a same-day, date-only completion never precedes its
// claim (docs/real-data.md).
func CompletedBy(w *WU) (time.Time, bool) {
	at, timed, ok := completion(w)
	if ok && !timed {
		at = at.Add(24*time.Hour - time.Millisecond)
	}
	return at, ok
}

// CycleHours is completed − claimed_at in hours (corpus §3.7); ok is false for a WU without
// a parsable claimed_at or completion. A completion known only by its date happened some
// time that day: it counts as the end of the day (23:59:59.999Z), the one reading that
// never puts a same-day completion before its claim. A cycle that is still negative (a
// claim recorded after the completion) is contradictory data and is left out, as a WU
// without claimed_at is (docs/real-data.md).
func CycleHours(w *WU) (float64, bool) {
	done, ok := CompletedBy(w)
	if !ok {
		return 0, false
	}
	claimed, err := ParseTimestamp(w.ClaimedAt)
	if err != nil {
		return 0, false
	}
	h := done.Sub(claimed).Hours()
	if h < 0 {
		return 0, false
	}
	return h, true
}

// CompletedIn returns the WUs whose completion falls inside win, ordered by completion
// time then numeric id. Only WUs whose normalised status is done count.
func CompletedIn(wus []*WU, win Window) []*WU {
	type item struct {
		w  *WU
		at time.Time
	}
	var items []item
	for _, w := range wus {
		if w.NormStatus() != StatusDone {
			continue
		}
		if at, ok := CompletedAt(w); ok && win.Contains(at) {
			items = append(items, item{w, at})
		}
	}
	sort.SliceStable(items, func(i, j int) bool {
		if !items[i].at.Equal(items[j].at) {
			return items[i].at.Before(items[j].at)
		}
		return items[i].w.Number() < items[j].w.Number()
	})
	out := make([]*WU, len(items))
	for i, it := range items {
		out[i] = it.w
	}
	return out
}

// Round1 rounds to one decimal, the rule for every ratio and hour figure in reports (§1.14).
func Round1(x float64) float64 { return math.Round(x*10) / 10 }

// Percent is 100·part/whole rounded to one decimal, 0 when whole is 0.
func Percent(part, whole int) float64 {
	if whole == 0 {
		return 0
	}
	return Round1(100 * float64(part) / float64(whole))
}

// NearestRank is the p-th percentile of values by nearest rank on the ascending sort
// (index ceil(p·n)−1, corpus §1.14); 0 for no values. values is not modified.
func NearestRank(values []float64, p float64) float64 {
	if len(values) == 0 {
		return 0
	}
	s := append([]float64(nil), values...)
	sort.Float64s(s)
	i := int(math.Ceil(p*float64(len(s)))) - 1
	i = max(0, min(i, len(s)-1))
	return s[i]
}

// Mean is the arithmetic mean, 0 for no values.
func Mean(values []float64) float64 {
	if len(values) == 0 {
		return 0
	}
	sum := 0.0
	for _, v := range values {
		sum += v
	}
	return sum / float64(len(values))
}

// GateStats counts gate runs: pass_rate is a percentage with one decimal.
type GateStats struct {
	Total    int     `json:"total"`
	Passed   int     `json:"passed"`
	Failed   int     `json:"failed"`
	PassRate float64 `json:"pass_rate"`
}

// GatesReport is flow:report's gates object. ByName is keyed by gate name (JSON objects
// with string keys encode in sorted order, which is the order the text table uses).
type GatesReport struct {
	Total         int                  `json:"total"`
	Passed        int                  `json:"passed"`
	Failed        int                  `json:"failed"`
	PassRate      float64              `json:"pass_rate"`
	P95DurationMS int64                `json:"p95_duration_ms"`
	ByName        map[string]GateStats `json:"by_name"`
}

// FlowWU is one completed WU in flow:report.
type FlowWU struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Lane      string `json:"lane"`
	Completed string `json:"completed"`
}

// FlowWUs is flow:report's wus object.
type FlowWUs struct {
	Completed int      `json:"completed"`
	List      []FlowWU `json:"list"`
}

// DateRange is a report's {start, end} as dates.
type DateRange struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// FlowReport is flow:report's data (corpus §3.7).
type FlowReport struct {
	Range DateRange   `json:"range"`
	Gates GatesReport `json:"gates"`
	WUs   FlowWUs     `json:"wus"`
}

// BuildFlowReport summarises the gate records whose timestamp lies in win (records with an
// unparsable timestamp are ignored) and the WUs completed in win.
func BuildFlowReport(win Window, gates []GateTelemetry, wus []*WU) FlowReport {
	r := FlowReport{
		Range: DateRange{Start: Date(win.Start), End: Date(win.End)},
		Gates: GatesReport{ByName: map[string]GateStats{}},
		WUs:   FlowWUs{List: []FlowWU{}},
	}
	var durations []float64
	for _, g := range gates {
		ts, err := ParseTimestamp(g.Timestamp)
		if err != nil || !win.Contains(ts) {
			continue
		}
		s := r.Gates.ByName[g.GateName]
		s.Total++
		r.Gates.Total++
		if g.Passed {
			s.Passed++
			r.Gates.Passed++
		} else {
			s.Failed++
			r.Gates.Failed++
		}
		r.Gates.ByName[g.GateName] = s
		durations = append(durations, float64(g.DurationMS))
	}
	for name, s := range r.Gates.ByName {
		s.PassRate = Percent(s.Passed, s.Total)
		r.Gates.ByName[name] = s
	}
	r.Gates.PassRate = Percent(r.Gates.Passed, r.Gates.Total)
	r.Gates.P95DurationMS = int64(NearestRank(durations, 0.95))
	for _, w := range CompletedIn(wus, win) {
		at, _ := CompletedAt(w)
		r.WUs.List = append(r.WUs.List, FlowWU{ID: w.ID, Title: w.Title, Lane: w.Lane, Completed: Date(at)})
	}
	r.WUs.Completed = len(r.WUs.List)
	return r
}

// Bottleneck is one WU that blocks others, with the number of open WUs it transitively blocks.
type Bottleneck struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Score int    `json:"score"`
}

// CriticalPath is the longest dependency chain among open WUs; on a cycle Path is empty and
// CycleNodes lists the WUs on cycles.
type CriticalPath struct {
	Path       []string `json:"path"`
	Length     int      `json:"length"`
	CycleNodes []string `json:"cycle_nodes"`
}

// Bottlenecks is flow:bottlenecks' data.
type Bottlenecks struct {
	Bottlenecks  []Bottleneck `json:"bottlenecks"`
	CriticalPath CriticalPath `json:"critical_path"`
}

// FindBottlenecks builds the dependency graph of the WUs that are neither done nor closed
// (edges blocker → blocked from blocked_by and blocks, deduplicated, both ends open),
// scores each WU by the open WUs it transitively blocks, keeps the limit highest non-zero
// scores (ties by numeric id) and finds the critical path: the chain with the most WUs,
// ties going to the lexicographically lowest id sequence. A graph without edges has an
// empty path; a graph with a cycle has an empty path and lists the cycle's WUs.
func FindBottlenecks(wus []*WU, limit int) Bottlenecks {
	open := map[string]*WU{}
	var ids []string
	for _, w := range wus {
		if s := w.NormStatus(); s == StatusDone || s == StatusClosed {
			continue
		}
		if _, dup := open[w.ID]; !dup {
			ids = append(ids, w.ID)
		}
		open[w.ID] = w
	}
	SortWUIDs(ids)
	edges := map[string]map[string]bool{}
	add := func(from, to string) {
		if open[from] == nil || open[to] == nil || from == to {
			return
		}
		if edges[from] == nil {
			edges[from] = map[string]bool{}
		}
		edges[from][to] = true
	}
	for _, id := range ids {
		for _, b := range open[id].BlockedBy {
			add(b, id)
		}
		for _, b := range open[id].Blocks {
			add(id, b)
		}
	}
	succ := map[string][]string{}
	for from, tos := range edges {
		for to := range tos {
			succ[from] = append(succ[from], to)
		}
		SortWUIDs(succ[from])
	}

	out := Bottlenecks{Bottlenecks: []Bottleneck{}, CriticalPath: CriticalPath{Path: []string{}, CycleNodes: []string{}}}
	for _, id := range ids {
		seen := map[string]bool{id: true}
		stack := append([]string(nil), succ[id]...)
		score := 0
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[n] {
				continue
			}
			seen[n] = true
			score++
			stack = append(stack, succ[n]...)
		}
		if score > 0 {
			out.Bottlenecks = append(out.Bottlenecks, Bottleneck{ID: id, Title: open[id].Title, Score: score})
		}
	}
	sort.SliceStable(out.Bottlenecks, func(i, j int) bool { return out.Bottlenecks[i].Score > out.Bottlenecks[j].Score })
	if limit >= 0 && len(out.Bottlenecks) > limit {
		out.Bottlenecks = out.Bottlenecks[:limit]
	}

	if cyc := cycleNodes(ids, succ); len(cyc) > 0 {
		out.CriticalPath.CycleNodes = cyc
		return out
	}
	if len(edges) == 0 {
		return out
	}
	best := map[string][]string{}
	var longest func(id string) []string
	longest = func(id string) []string {
		if p, ok := best[id]; ok {
			return p
		}
		var tail []string
		for _, s := range succ[id] {
			if p := longest(s); betterPath(p, tail) {
				tail = p
			}
		}
		p := append([]string{id}, tail...)
		best[id] = p
		return p
	}
	var path []string
	for _, id := range ids {
		if p := longest(id); betterPath(p, path) {
			path = p
		}
	}
	out.CriticalPath.Path, out.CriticalPath.Length = path, len(path)
	return out
}

// betterPath reports whether a is longer than b, or as long and lower by numeric ids.
func betterPath(a, b []string) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	for i := range a {
		if na, nb := WUNumber(a[i]), WUNumber(b[i]); na != nb {
			return na < nb
		}
	}
	return false
}

// cycleNodes returns, in numeric order, every node that lies on a cycle (Tarjan's strongly
// connected components of size > 1; self-edges are never added).
func cycleNodes(ids []string, succ map[string][]string) []string {
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack, out []string
	next := 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range succ[v] {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > 1 {
				out = append(out, comp...)
			}
		}
	}
	for _, id := range ids {
		if _, seen := index[id]; !seen {
			visit(id)
		}
	}
	SortWUIDs(out)
	return out
}
