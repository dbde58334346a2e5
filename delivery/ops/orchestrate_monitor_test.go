package ops_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestMonitorSince: orchestrate:monitor's SINCE forms, and USAGE for anything else
// (an empty value included).
func TestMonitorSince(t *testing.T) {
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
		{"", time.Time{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ops.MonitorSince(tt.in, now)
			assert.Equal(t, tt.ok, err == nil, "%v", err)
			if err != nil {
				assert.Equal(t, tool.CodeUsage, delivery.AsError(err).Code)
				return
			}
			assert.True(t, tt.want.Equal(got), "got %v", got)
		})
	}
}
