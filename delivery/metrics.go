package delivery

import (
	"sort"
	"time"
)

// DORA tiers (corpus §3.7).
const (
	TierElite  = "elite"
	TierHigh   = "high"
	TierMedium = "medium"
	TierLow    = "low"
)

// Metric kinds of `metrics <KIND>` and `metrics:snapshot --type`.
const (
	MetricsAll   = "all"
	MetricsDORA  = "dora"
	MetricsLanes = "lanes"
	MetricsFlow  = "flow"
)

// DeployTier rates deploys per week: ≥5 elite, ≥1 high, ≥0.25 medium, else low.
func DeployTier(perWeek float64) string {
	switch {
	case perWeek >= 5:
		return TierElite
	case perWeek >= 1:
		return TierHigh
	case perWeek >= 0.25:
		return TierMedium
	}
	return TierLow
}

// LeadTimeTier rates a lead time in hours: ≤24 elite, ≤168 high, ≤720 medium, else low.
func LeadTimeTier(hours float64) string { return atMost(hours, 24, 168, 720) }

// ChangeFailureTier rates a change failure percentage: ≤15 elite, ≤30 high, ≤45 medium, else low.
func ChangeFailureTier(pct float64) string { return atMost(pct, 15, 30, 45) }

// MTTRTier rates a mean time to recovery in hours: ≤1 elite, ≤24 high, ≤168 medium, else low.
func MTTRTier(hours float64) string { return atMost(hours, 1, 24, 168) }

func atMost(v, elite, high, medium float64) string {
	switch {
	case v <= elite:
		return TierElite
	case v <= high:
		return TierHigh
	case v <= medium:
		return TierMedium
	}
	return TierLow
}

// DeploymentFrequency is the DORA deployment frequency: completed WUs per week.
type DeploymentFrequency struct {
	DeploysPerWeek float64 `json:"deploys_per_week"`
	Status         string  `json:"status"`
}

// LeadTime is the DORA lead time over the cycle times of the completed WUs.
type LeadTime struct {
	AverageHours float64 `json:"average_hours"`
	MedianHours  float64 `json:"median_hours"`
	P90Hours     float64 `json:"p90_hours"`
	Status       string  `json:"status"`
}

// ChangeFailureRate counts skip-gates audit records against completed WUs.
type ChangeFailureRate struct {
	Failures          int     `json:"failures"`
	TotalDeployments  int     `json:"total_deployments"`
	FailurePercentage float64 `json:"failure_percentage"`
	Status            string  `json:"status"`
}

// MeanTimeToRecovery is the average cycle time of completed bug WUs.
type MeanTimeToRecovery struct {
	AverageHours float64 `json:"average_hours"`
	Incidents    int     `json:"incidents"`
	Status       string  `json:"status"`
}

// DORA is the dora section of `metrics`.
type DORA struct {
	DeploymentFrequency DeploymentFrequency `json:"deployment_frequency"`
	LeadTime            LeadTime            `json:"lead_time"`
	ChangeFailureRate   ChangeFailureRate   `json:"change_failure_rate"`
	MeanTimeToRecovery  MeanTimeToRecovery  `json:"mean_time_to_recovery"`
}

// LaneMetrics is one row of the lanes section.
type LaneMetrics struct {
	Lane              string  `json:"lane"`
	Completed         int     `json:"completed"`
	InProgress        int     `json:"in_progress"`
	Blocked           int     `json:"blocked"`
	AverageCycleHours float64 `json:"average_cycle_hours"`
	MedianCycleHours  float64 `json:"median_cycle_hours"`
	Status            string  `json:"status"`
}

// Lane health values of LaneMetrics.Status.
const (
	LaneHealthy = "healthy"
	LaneAtRisk  = "at-risk"
	LaneBlocked = "blocked"
)

// FlowState counts WUs by normalised status; waiting is always 0 (no YAML status maps to
// it) and total_active is every WU that is not done or closed.
type FlowState struct {
	Ready       int `json:"ready"`
	InProgress  int `json:"in_progress"`
	Blocked     int `json:"blocked"`
	Waiting     int `json:"waiting"`
	Done        int `json:"done"`
	TotalActive int `json:"total_active"`
}

// Metrics is the data of `metrics` and the content of a snapshot; sections not requested
// are nil (null).
type Metrics struct {
	Kind        string        `json:"kind"`
	Days        int           `json:"days"`
	GeneratedAt string        `json:"generated_at"`
	DORA        *DORA         `json:"dora"`
	Lanes       []LaneMetrics `json:"lanes"`
	Flow        *FlowState    `json:"flow"`
}

// MetricsInput is what the metrics are computed from.
type MetricsInput struct {
	Kind string
	Days int
	Now  time.Time
	// Config gives the lane definition order.
	Config *Config
	WUs    []*WU
	// SkipGates are the skip-gates audit timestamps (corpus §1.12); unparsable ones are ignored.
	SkipGates []string
}

// ComputeMetrics computes the requested sections over the window [now − days, now].
func ComputeMetrics(in MetricsInput) Metrics {
	m := Metrics{Kind: in.Kind, Days: in.Days, GeneratedAt: Timestamp(in.Now)}
	win := DaysWindow(in.Now, in.Days)
	completed := CompletedIn(in.WUs, win)
	if in.Kind == MetricsAll || in.Kind == MetricsDORA {
		d := computeDORA(completed, in.SkipGates, win, in.Days)
		m.DORA = &d
	}
	if in.Kind == MetricsAll || in.Kind == MetricsLanes {
		m.Lanes = laneMetrics(in.Config, in.WUs, completed)
	}
	if in.Kind == MetricsAll || in.Kind == MetricsFlow {
		f := flowState(in.WUs)
		m.Flow = &f
	}
	return m
}

func cycleTimes(wus []*WU) []float64 {
	var out []float64
	for _, w := range wus {
		if h, ok := CycleHours(w); ok {
			out = append(out, h)
		}
	}
	return out
}

func computeDORA(completed []*WU, skipGates []string, win Window, days int) DORA {
	var d DORA
	n := len(completed)
	d.DeploymentFrequency.Status = TierElite // empty inputs give 0 with status elite
	if n > 0 && days > 0 {
		d.DeploymentFrequency.DeploysPerWeek = Round1(float64(n) / (float64(days) / 7))
		d.DeploymentFrequency.Status = DeployTier(float64(n) / (float64(days) / 7))
	}
	cycles := cycleTimes(completed)
	avg := Mean(cycles)
	d.LeadTime = LeadTime{AverageHours: Round1(avg), MedianHours: Round1(NearestRank(cycles, 0.5)),
		P90Hours: Round1(NearestRank(cycles, 0.9)), Status: LeadTimeTier(avg)}
	failures := 0
	for _, ts := range skipGates {
		if t, err := ParseTimestamp(ts); err == nil && win.Contains(t) {
			failures++
		}
	}
	pct := 0.0
	if n > 0 {
		pct = 100 * float64(failures) / float64(n)
	}
	d.ChangeFailureRate = ChangeFailureRate{Failures: failures, TotalDeployments: n,
		FailurePercentage: Round1(pct), Status: ChangeFailureTier(pct)}
	var bugs []*WU
	for _, w := range completed {
		if w.Type == "bug" {
			bugs = append(bugs, w)
		}
	}
	bugCycles := cycleTimes(bugs)
	mttr := Mean(bugCycles)
	d.MeanTimeToRecovery = MeanTimeToRecovery{AverageHours: Round1(mttr), Incidents: len(bugs), Status: MTTRTier(mttr)}
	return d
}

// laneMetrics lists the defined lanes in definition order, then every other lane of a WU
// alphabetically. completed and the cycle hours cover the WUs completed in the window;
// in_progress and blocked are current counts.
func laneMetrics(cfg *Config, wus, completed []*WU) []LaneMetrics {
	rows := map[string]*LaneMetrics{}
	cycles := map[string][]float64{}
	var order, extra []string
	for _, l := range cfg.Lanes {
		if rows[l.Name] == nil {
			rows[l.Name] = &LaneMetrics{Lane: l.Name}
			order = append(order, l.Name)
		}
	}
	row := func(lane string) *LaneMetrics {
		if rows[lane] == nil {
			rows[lane] = &LaneMetrics{Lane: lane}
			extra = append(extra, lane)
		}
		return rows[lane]
	}
	for _, w := range wus {
		r := row(w.Lane)
		switch w.NormStatus() {
		case StatusInProgress:
			r.InProgress++
		case StatusBlocked:
			r.Blocked++
		}
	}
	for _, w := range completed {
		row(w.Lane).Completed++
		if h, ok := CycleHours(w); ok {
			cycles[w.Lane] = append(cycles[w.Lane], h)
		}
	}
	sort.Strings(extra)
	out := make([]LaneMetrics, 0, len(rows))
	for _, name := range append(order, extra...) {
		r := rows[name]
		r.AverageCycleHours = Round1(Mean(cycles[name]))
		r.MedianCycleHours = Round1(NearestRank(cycles[name], 0.5))
		switch {
		case r.Blocked > 0 && r.InProgress == 0:
			r.Status = LaneBlocked
		case r.Blocked > 0:
			r.Status = LaneAtRisk
		default:
			r.Status = LaneHealthy
		}
		out = append(out, *r)
	}
	return out
}

func flowState(wus []*WU) FlowState {
	var f FlowState
	for _, w := range wus {
		switch w.NormStatus() {
		case StatusReady:
			f.Ready++
		case StatusInProgress:
			f.InProgress++
		case StatusBlocked:
			f.Blocked++
		case StatusDone:
			f.Done++
		}
	}
	f.TotalActive = f.Ready + f.InProgress + f.Blocked + f.Waiting
	return f
}
