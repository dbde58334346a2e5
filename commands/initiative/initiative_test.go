package initiative

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery"
)

func TestProgressOf(t *testing.T) {
	tests := []struct {
		name     string
		statuses []string
		want     progress
	}{
		{"no WUs is 0%", nil, progress{}},
		{"one of three rounds to 33", []string{"done", "in_progress", "todo"}, progress{Percentage: 33, Done: 1, InProgress: 1, Ready: 1, Total: 3}},
		{"two of three rounds to 67", []string{"done", "completed", "blocked"}, progress{Percentage: 67, Done: 2, Blocked: 1, Total: 3}},
		{"half rounds up", []string{"done", "cancelled"}, progress{Percentage: 50, Done: 1, Total: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var wus []*delivery.WU
			for i, s := range tt.statuses {
				w, err := delivery.ParseWU("x.yaml", []byte("id: WU-"+string(rune('1'+i))+"\nstatus: "+s+"\n"))
				require.NoError(t, err)
				wus = append(wus, w)
			}
			assert.Equal(t, tt.want, progressOf(wus))
		})
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"30m", now.Add(-30 * time.Minute), true},
		{"7d", now.Add(-7 * 24 * time.Hour), true},
		{"2026-02-27", time.Date(2026, 2, 27, 0, 0, 0, 0, time.UTC), true},
		{"2026-03-01T09:15:00.500Z", time.Date(2026, 3, 1, 9, 15, 0, 5e8, time.UTC), true},
		{"yesterday", time.Time{}, false},
		{"2026-02-30", time.Time{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := parseSince(tt.in, now)
			assert.Equal(t, tt.ok, ok)
			assert.True(t, tt.want.Equal(got), "got %v", got)
		})
	}
}
