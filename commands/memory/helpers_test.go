package memory

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestSince(t *testing.T) {
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		ok   bool
		want time.Time
	}{
		{"30m", true, now.Add(-30 * time.Minute)},
		{"2d", true, now.Add(-48 * time.Hour)},
		{"2026-02-27", true, time.Date(2026, 2, 27, 0, 0, 0, 0, time.UTC)},
		{"2026-02-27T12:00:00+02:00", true, time.Date(2026, 2, 27, 10, 0, 0, 0, time.UTC)},
		{"yesterday", false, time.Time{}},
		{"2026-13-01", false, time.Time{}},
	} {
		var v sinceValue
		err := v.Set(tc.in)
		assert.Equal(t, tc.ok, err == nil, tc.in)
		if tc.ok {
			got, ok := sinceInstant(v.String(), now)
			assert.True(t, ok)
			assert.True(t, tc.want.Equal(got), "%s: got %s", tc.in, got)
		}
	}
}
