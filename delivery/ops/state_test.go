package ops

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/cmdbridge/cmdbridge/delivery"
)

func TestPruneSignals(t *testing.T) {
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	sig := func(id string, daysOld int, read bool, wu string) delivery.Signal {
		return delivery.Signal{ID: id, CreatedAt: delivery.Timestamp(now.AddDate(0, 0, -daysOld)), Read: read, WUID: wu}
	}
	store := &delivery.SignalStore{Signals: []delivery.Signal{
		sig("sig-a", 10, true, ""),      // read, past the 7d TTL
		sig("sig-b", 10, false, ""),     // unread, within 30d
		sig("sig-c", 100, true, "WU-1"), // protected
		sig("sig-d", 40, false, ""),     // unread, past 30d
		sig("sig-e", 1, true, ""),       // fresh
	}}
	policy := SignalPolicy{TTL: 7 * 24 * time.Hour, UnreadTTL: 30 * 24 * time.Hour, MaxEntries: 500}
	for _, tc := range []struct {
		name    string
		max     int
		removed []string
	}{
		{"ttl only", 500, []string{"sig-a", "sig-d"}},
		{"cap removes the oldest unprotected", 2, []string{"sig-a", "sig-b", "sig-d"}},
		{"protected signals survive any cap", 0, []string{"sig-a", "sig-b", "sig-d", "sig-e"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := policy
			p.MaxEntries = tc.max
			keep, removed := pruneSignals(store, map[string]bool{"WU-1": true}, now, p)
			assert.Equal(t, tc.removed, removed)
			assert.Len(t, keep, len(store.Signals)-len(removed))
		})
	}
}
