package delivery

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuildBoard(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Lanes = []LaneDef{{Name: "Zeta", WIPLimit: 2}, {Name: "Alpha", WIPLimit: 1}}
	mk := func(id, lane, status, prio string) *WU {
		w, err := ParseWU("x", []byte("id: "+id+"\nlane: "+lane+"\nstatus: "+status+"\npriority: "+prio+"\ntitle: T\n"))
		require.NoError(t, err)
		return w
	}
	wus := []*WU{
		mk("WU-5", "Zeta", "ready", "P2"), mk("WU-2", "Zeta", "in_progress", "P2"), mk("WU-9", "Zeta", "todo", "P0"),
		mk("WU-1", "Omega", "done", "P1"), mk("WU-3", "Beta", "cancelled", "P3"),
	}
	b := BuildBoard(cfg, wus, map[string]string{"WU-2": "ready", "WU-5": "ready"}, func(w *WU) bool {
		s := w.NormStatus()
		return s != StatusDone && s != StatusClosed
	})
	require.Len(t, b.Lanes, 4)
	assert.Equal(t, []string{"Zeta", "Alpha", "Beta", "Omega"}, []string{b.Lanes[0].Lane, b.Lanes[1].Lane, b.Lanes[2].Lane, b.Lanes[3].Lane})
	assert.Equal(t, []BoardWU{
		{ID: "WU-9", Title: "T", Status: "ready", Priority: "P0", Consistent: true},
		{ID: "WU-2", Title: "T", Status: "in_progress", Priority: "P2", Consistent: false},
		{ID: "WU-5", Title: "T", Status: "ready", Priority: "P2", Consistent: true},
	}, b.Lanes[0].WUs)
	assert.Equal(t, StatusCounts{Ready: 2, InProgress: 1}, b.Lanes[0].Counts)
	assert.Empty(t, b.Lanes[3].WUs, "done WUs are counted, not listed")
	assert.Equal(t, StatusCounts{Done: 1}, b.Lanes[3].Counts)
	assert.Equal(t, StatusCounts{Ready: 2, InProgress: 1, Done: 1, Closed: 1}, b.Totals)
}
