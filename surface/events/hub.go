package events

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// Config configures a [Hub].
type Config struct {
	// Dir is the outbox directory (created if missing). Required: durable events and the
	// stream sequence live there. One hub at a time may use a directory.
	Dir string
	// Source names this producer in every event without one (default "cmdbridge").
	Source string
	// From is the subject of events published without one (default: Source).
	From string
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Heartbeat is the interval of SSE comment heartbeats (default 15s).
	Heartbeat time.Duration
	// Retry is the reconnection delay announced with "retry:" at connect (default 3s).
	Retry time.Duration
	// BufferSize bounds the replay ring of recent events (default 1024).
	BufferSize int
	// QueueSize bounds each subscriber's queue (default 256).
	QueueSize int
	// WriteTimeout bounds one write to a subscriber (default 30s).
	WriteTimeout time.Duration
}

// ErrClosed is returned by Publish and Ack after Close.
var ErrClosed = errors.New("events: hub closed")

// Hub fans published events out to SSE subscribers and keeps durable ones in the outbox.
type Hub struct{}

// NewHub opens (or creates) the outbox in cfg.Dir and returns a hub.
func NewHub(cfg Config) (*Hub, error) { return nil, errors.New("TODO") }

// Publish validates e, fills its envelope (schema version, source, from, seq, timestamp,
// canonical payload, event id) and delivers it. Durable kinds are appended to the outbox
// and fsynced before Publish returns; ephemeral kinds are dropped silently when no
// subscriber is connected. It returns the event as delivered.
func (h *Hub) Publish(ctx context.Context, e Event) (Event, error) { return Event{}, errors.New("TODO") }

// Ack acknowledges durable events by id; they are no longer replayed. It returns how
// many pending events it acknowledged (unknown or already acknowledged ids count zero).
func (h *Hub) Ack(ids []string) (int, error) { return 0, errors.New("TODO") }

// AckChannel acknowledges every pending durable event of channel whose stream id is at
// most through.
func (h *Hub) AckChannel(channel string, through uint64) (int, error) {
	return 0, errors.New("TODO")
}

// Pending returns the unacknowledged durable events, in stream order.
func (h *Hub) Pending() []Event { return nil }

// Stats are counters of a hub's life.
type Stats struct {
	Published      uint64 // events accepted by Publish
	DroppedNoSub   uint64 // ephemeral events dropped because nobody listened
	DroppedSlow    uint64 // ephemeral events dropped from full subscriber queues
	Subscribers    int    // connected subscribers now
	PendingDurable int    // unacknowledged durable events
}

// Stats returns the hub's counters.
func (h *Hub) Stats() Stats { return Stats{} }

// Handler serves GET /events (SSE) and POST /events/ack. Mount it so it sees those paths
// unchanged. Authentication is the caller's job.
func (h *Hub) Handler() http.Handler { return http.NotFoundHandler() }

// Close ends every subscriber stream, records the stream sequence and releases the
// outbox directory. Publish after Close returns ErrClosed.
func (h *Hub) Close() error { return nil }
