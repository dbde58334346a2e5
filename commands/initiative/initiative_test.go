package initiative

import (
	"testing"

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
