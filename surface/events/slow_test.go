package events

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFullQueueDropsEphemeralAndCatchesUpDurable(t *testing.T) {
	h, err := NewHub(Config{Dir: t.TempDir(), QueueSize: 2})
	require.NoError(t, err)
	defer h.Close()
	s := &subscriber{queue: make(chan *item, 2), wake: make(chan struct{}, 1), done: make(chan struct{})}
	_, _, ok := h.subscribe(s, 0, false)
	require.True(t, ok)

	// Nobody reads s: none of these may block.
	publish := func(e Event) uint64 {
		out, err := h.Publish(context.Background(), e)
		require.NoError(t, err)
		return out.Seq
	}
	e1 := publish(TurnStarted("r", "t1", nil))
	e2 := publish(TurnStarted("r", "t2", nil))
	publish(TurnStarted("r", "t3", nil)) // queue full: dropped
	d4 := publish(Command("a", "one", nil))
	publish(TurnStarted("r", "t5", nil)) // catching up: dropped
	d6 := publish(Command("a", "two", nil))

	require.Len(t, s.wake, 1, "the writer is told to catch up")
	assert.Equal(t, uint64(2), s.dropped.Load())
	assert.Equal(t, uint64(2), h.Stats().DroppedSlow)

	var got []uint64
	for _, it := range h.catchUp(s, 0) {
		got = append(got, it.stream)
	}
	assert.Equal(t, []uint64{e1, e2, d4, d6}, got, "queued events, then the durable ones it missed, in order")

	e7 := publish(TurnStarted("r", "t7", nil))
	require.Len(t, s.queue, 1, "after catching up, live events queue again")
	assert.Equal(t, e7, (<-s.queue).stream)
}
