package delivery

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The rules of docs/real-data.md, one table each.

func TestConsistentClosedStatus(t *testing.T) {
	cases := []struct {
		state string
		has   bool
		yaml  string
		want  bool
	}{
		{"", false, "superseded", true},
		{StatusReady, true, "superseded", true}, // claimed, released, superseded
		{StatusReady, true, "cancelled", true},  // created, then cancelled
		{StatusDone, true, "superseded", true},  // completed, superseded later
		{StatusInProgress, true, "cancelled", false},
		{StatusBlocked, true, "abandoned", false},
		{StatusWaiting, true, "closed", false},
		{StatusReady, true, "done", false}, // the other statuses still need equality
		{StatusDone, true, "completed", true},
		{StatusInProgress, true, "in_progress", true},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, Consistent(tc.state, tc.has, tc.yaml), "%q (has %v) vs YAML %s", tc.state, tc.has, tc.yaml)
	}
}

func TestReconcileTarget(t *testing.T) {
	for yaml, want := range map[string]string{"superseded": StatusReady, "cancelled": StatusReady, "done": StatusDone,
		"todo": StatusReady, "blocked": StatusBlocked, "in_progress": StatusInProgress} {
		assert.Equal(t, want, ReconcileTarget(yaml), yaml)
	}
}

func TestCycleHoursDateOnlyCompletion(t *testing.T) {
	cases := []struct {
		name                   string
		claimed, at, completed string
		want                   float64
		ok                     bool
	}{
		{"timed", "2026-01-05T09:00:00.000Z", "2026-01-05T15:00:00.000Z", "2026-01-05", 6, true},
		{"date only, same day: end of that day", "2026-01-05T09:00:00.000Z", "", "2026-01-05", 15 - 0.001/3600, true},
		{"date in completed_at", "2026-01-05T12:00:00.000Z", "2026-01-06", "", 36 - 0.001/3600, true},
		{"claimed after completion: left out", "2026-01-07T09:00:00.000Z", "2026-01-06T09:00:00.000Z", "", 0, false},
		{"claimed after a date-only completion: left out", "2026-01-07T09:00:00.000Z", "", "2026-01-06", 0, false},
		{"no claim", "", "2026-01-06T09:00:00.000Z", "", 0, false},
	}
	for _, tc := range cases {
		w := &WU{ClaimedAt: tc.claimed, CompletedAt: tc.at, Completed: tc.completed}
		h, ok := CycleHours(w)
		assert.Equal(t, tc.ok, ok, tc.name)
		assert.InDelta(t, tc.want, h, 1e-6, tc.name)
	}
	// The window still places a date-only completion at 00:00Z of its date (corpus §3.7).
	at, ok := CompletedAt(&WU{CompletedAt: "2026-01-06"})
	assert.True(t, ok)
	assert.Equal(t, "2026-01-06T00:00:00.000Z", Timestamp(at))
}

func TestIsSubLane(t *testing.T) {
	cases := []struct {
		parent, sub string
		want        bool
	}{
		{"Framework: Core", "Framework: Core Lifecycle", true},
		{"Framework: CLI", "Framework: CLI WU Commands", true},
		{"Framework", "Framework: Core", true},
		{"Framework: Core", "Framework: Core", false},
		{"Framework: Co", "Framework: Core", false},
		{"Framework: Core", "Framework: Core ", false},
		{"Framework: Core Lifecycle", "Framework: Core", false},
		{"Framework: Core", "Framework: CLI", false},
		{"", "Framework: Core", false},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, IsSubLane(tc.parent, tc.sub), "%q / %q", tc.parent, tc.sub)
	}
}

func TestMembershipIndexMatchesInitiativeWUs(t *testing.T) {
	wus := []*WU{{ID: "WU-3", Initiative: "INIT-1"}, {ID: "WU-1", Initiative: "api"}, {ID: "WU-2"}, {ID: "WU-4", Initiative: "INIT-2"}}
	in := &Initiative{ID: "INIT-1", Slug: "api", WUs: []string{"WU-2", "WU-9", "WU-3", "WU-8", "WU-9"}}
	x := NewMembershipIndex(wus)
	got, missing := x.Members(in)
	var ids []string
	for _, w := range got {
		ids = append(ids, w.ID)
	}
	assert.Equal(t, []string{"WU-1", "WU-2", "WU-3"}, ids)
	assert.Equal(t, []string{"WU-9", "WU-8"}, missing, "missing ids in list order, once each")
	empty, none := x.Members(&Initiative{ID: "INIT-3"})
	assert.Empty(t, empty)
	assert.Empty(t, none)
}
