package events_test

import (
	"context"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/events"
)

func BenchmarkID(b *testing.B) {
	e := events.ToolCalled("run-1", "call-1", "wu:create", map[string]any{"lane": "core", "n": 3, "tags": []string{"a", "b"}})
	e.Source, e.Seq = "ws", 1
	for b.Loop() {
		if _, err := events.ID(e); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPublish(b *testing.B) {
	for _, tc := range []struct {
		name  string
		event events.Event
	}{
		{"ephemeral-no-subscriber", events.ToolCalled("r", "c", "wu:status", nil)},
		{"durable-fsync", events.Command("ops", "pause", nil)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			h, err := events.NewHub(events.Config{Dir: b.TempDir()})
			require.NoError(b, err)
			defer h.Close()
			ctx := context.Background()
			for b.Loop() {
				if _, err := h.Publish(ctx, tc.event); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStreamLoopback publishes ephemeral events to one SSE subscriber over
// loopback while it reads them: end-to-end events per second, and how many a
// subscriber this fast still loses.
func BenchmarkStreamLoopback(b *testing.B) {
	h, base := newHub(b, events.Config{})
	s := connect(b, base, "")
	for h.Stats().Subscribers == 0 {
		runtime.Gosched()
	}
	done := make(chan error, 1)
	go func() {
		for {
			f, err := s.nextEvent()
			if err != nil || f.Event == events.KindCommand {
				done <- err
				return
			}
		}
	}()
	ctx := context.Background()
	n := 0
	for b.Loop() {
		if _, err := h.Publish(ctx, events.ToolCalled("r", strconv.Itoa(n), "wu:status", nil)); err != nil {
			b.Fatal(err)
		}
		n++
	}
	// A durable end marker: never dropped, so the reader always sees it.
	if _, err := h.Publish(ctx, events.Command("bench", "end", nil)); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	require.NoError(b, <-done)
	b.ReportMetric(float64(h.Stats().DroppedSlow)/float64(n), "dropped/op")
}
