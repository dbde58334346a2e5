package ops

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery"
)

func TestCorrectiveEvents(t *testing.T) {
	w := &delivery.WU{ID: "WU-7", Lane: "Core: API", Title: "T"}
	for _, tc := range []struct {
		from, to string
		want     []string
		ok       bool
	}{
		{"", delivery.StatusDone, []string{"complete"}, true},
		{delivery.StatusReady, delivery.StatusBlocked, []string{"claim", "block"}, true},
		{delivery.StatusBlocked, delivery.StatusReady, []string{"unblock", "release"}, true},
		{delivery.StatusInProgress, delivery.StatusDone, []string{"complete"}, true},
		{delivery.StatusWaiting, delivery.StatusBlocked, []string{"unblock", "block"}, true},
		{delivery.StatusReady, delivery.StatusReady, nil, true},
		{delivery.StatusDone, delivery.StatusReady, nil, false},
		{delivery.StatusInProgress, delivery.StatusClosed, nil, false},
	} {
		t.Run(tc.from+"->"+tc.to, func(t *testing.T) {
			evs, ok := correctiveEvents(w, tc.from, tc.to, "2026-03-01T10:00:00.000Z")
			require.Equal(t, tc.ok, ok)
			var types []string
			for _, e := range evs {
				types = append(types, e.Type)
				assert.NoError(t, e.Validate(), "every corrective event is a valid record")
			}
			assert.Equal(t, tc.want, types)
		})
	}
}
