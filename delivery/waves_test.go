package delivery

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wuFixture is a minimal WU: "WU-3 Lane ready WU-1,WU-2".
func wuFixture(t *testing.T, spec string) *WU {
	t.Helper()
	f := strings.Fields(spec)
	y := fmt.Sprintf("id: %s\ntitle: t\nlane: %s\nstatus: %s\ncreated: 2026-03-01\ndescription: d\nacceptance: []\n", f[0], f[1], f[2])
	if len(f) > 3 {
		y += "blocked_by: [" + f[3] + "]\n"
	}
	w, err := ParseWU(f[0]+".yaml", []byte(y))
	require.NoError(t, err)
	return w
}

func TestPlanWaves(t *testing.T) {
	tests := []struct {
		name     string
		init     []string
		outside  []string
		waves    [][]string
		skipped  []string
		deferred []Deferral
	}{
		{name: "independent WUs of distinct lanes share wave 1",
			init:  []string{"WU-1 A ready", "WU-2 B ready"},
			waves: [][]string{{"WU-1", "WU-2"}}},
		{name: "one WU per lane per wave",
			init:  []string{"WU-1 A ready", "WU-2 A ready", "WU-3 B ready"},
			waves: [][]string{{"WU-1", "WU-3"}, {"WU-2"}}},
		{name: "blocked_by inside orders the waves",
			init:  []string{"WU-1 A ready WU-2", "WU-2 B ready", "WU-3 C ready WU-1"},
			waves: [][]string{{"WU-2"}, {"WU-1"}, {"WU-3"}}},
		{name: "done is skipped and satisfies edges",
			init:    []string{"WU-1 A done", "WU-2 A ready WU-1", "WU-3 B in_progress"},
			waves:   [][]string{{"WU-2"}},
			skipped: []string{"WU-1"}},
		{name: "unfinished outside blocker defers, and propagates",
			init:     []string{"WU-1 A ready WU-9", "WU-2 B ready WU-1", "WU-3 C ready WU-8"},
			outside:  []string{"WU-9 X ready", "WU-8 X done"},
			waves:    [][]string{{"WU-3"}},
			deferred: []Deferral{{"WU-1", "waits for WU-9"}, {"WU-2", "waits for WU-1"}}},
		{name: "unknown outside blocker defers",
			init:     []string{"WU-1 A ready WU-40"},
			deferred: []Deferral{{"WU-1", "waits for WU-40"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in, all []*WU
			for _, s := range tt.init {
				in = append(in, wuFixture(t, s))
			}
			all = append(all, in...)
			for _, s := range tt.outside {
				all = append(all, wuFixture(t, s))
			}
			p, err := PlanWaves(in, all)
			require.NoError(t, err)
			want := tt.waves
			if want == nil {
				want = [][]string{}
			}
			assert.Equal(t, want, p.Waves)
			assert.Equal(t, append([]string{}, tt.skipped...), p.Skipped)
			assert.Equal(t, append([]Deferral{}, tt.deferred...), p.Deferred)
		})
	}
}

func TestPlanWavesCycle(t *testing.T) {
	tests := []struct {
		name  string
		init  []string
		msg   string
		cycle []string
	}{
		{"two WUs", []string{"WU-1 A ready WU-2", "WU-2 B ready WU-1"}, "dependency cycle: WU-1 -> WU-2 -> WU-1", []string{"WU-1", "WU-2"}},
		{"self", []string{"WU-4 A ready WU-4"}, "dependency cycle: WU-4 -> WU-4", []string{"WU-4"}},
		{"tail into a cycle", []string{"WU-1 A ready WU-2", "WU-2 B ready WU-3", "WU-3 C ready WU-2", "WU-5 D ready"},
			"dependency cycle: WU-2 -> WU-3 -> WU-2", []string{"WU-2", "WU-3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in []*WU
			for _, s := range tt.init {
				in = append(in, wuFixture(t, s))
			}
			_, err := PlanWaves(in, in)
			require.Error(t, err)
			assert.Equal(t, "VALIDATION", CodeOf(err))
			assert.Equal(t, tt.msg, err.Error())
			assert.Equal(t, tt.cycle, AsError(err).Details.(map[string]any)["cycle"])
		})
	}
}
