package events

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
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
	// Forward, when set, is handed every accepted event in stream order, whether or not
	// anyone subscribes, with whether its kind is durable (a durable one is already
	// committed to the outbox). It runs with the hub's lock held so that order is the
	// stream's; it must not block. A broker bridge (surface/broker) uses it to queue
	// ephemeral events and wake its outbox drainer.
	Forward func(e Event, durable bool)
}

func (c *Config) defaults() error {
	if c.Dir == "" {
		return errors.New("events: Config.Dir is required (the outbox lives there)")
	}
	if c.Source == "" {
		c.Source = "cmdbridge"
	}
	if c.From == "" {
		c.From = c.Source
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Heartbeat <= 0 {
		c.Heartbeat = 15 * time.Second
	}
	if c.Retry <= 0 {
		c.Retry = 3 * time.Second
	}
	if c.BufferSize <= 0 {
		c.BufferSize = 1024
	}
	if c.QueueSize <= 0 {
		c.QueueSize = 256
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = 30 * time.Second
	}
	return nil
}

// ErrClosed is returned by Publish and Ack after Close.
var ErrClosed = errors.New("events: hub closed")

// reserveBlock is how many stream ids one write of the sequence file reserves: ids stay
// monotonic across crashes at the cost of one fsync per block.
const reserveBlock = 1024

// compactAfter is how much garbage (ack lines and retired puts) the outbox may hold
// before Ack rewrites it, provided garbage also outweighs what is pending.
var compactAfter = 256

// item is one event ready for the wire: its stream id and its encoded SSE frame.
type item struct {
	stream  uint64
	durable bool
	frame   []byte
	// from and channel decide who may see the event (Visibility).
	from, channel string
}

// pendingItem is an unacknowledged durable event.
type pendingItem struct {
	stored
	item *item
}

// Hub fans published events out to SSE subscribers and keeps durable ones in the outbox.
// All its methods are safe for concurrent use.
type Hub struct {
	cfg Config

	// afterCommit, when set, runs after a durable event is committed to the outbox and
	// before anyone is told about it (the crash test's kill point).
	afterCommit func(Event)

	mu        sync.Mutex
	closed    bool
	ob        *outbox
	next      uint64 // next stream id
	reserved  uint64 // highest stream id the sequence file allows
	floor     uint64 // every kept event with a stream id >= floor is in ring or pending
	ring      []*item
	ringStart int // index of the oldest ring entry once the ring is full
	pending   []*pendingItem
	byID      map[string]*pendingItem
	subs      map[*subscriber]struct{}
	stats     Stats
}

// NewHub opens (or creates) the outbox in cfg.Dir and returns a hub. Pending durable
// events from an earlier life are replayed to subscribers as if just published.
func NewHub(cfg Config) (*Hub, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	ob, pending, err := openOutbox(cfg.Dir)
	if err != nil {
		return nil, err
	}
	seq, err := readSeq(cfg.Dir)
	if err != nil {
		ob.close()
		return nil, err
	}
	h := &Hub{
		cfg:  cfg,
		ob:   ob,
		next: seq.n + 1,
		byID: map[string]*pendingItem{},
		subs: map[*subscriber]struct{}{},
	}
	for _, s := range pending {
		it, err := newItem(s.stream, s.event, true)
		if err != nil {
			ob.close()
			return nil, err
		}
		p := &pendingItem{stored: s, item: it}
		h.pending = append(h.pending, p)
		h.byID[s.event.EventID] = p
		if s.stream >= h.next {
			h.next = s.stream + 1
		}
	}
	h.reserved = h.next - 1
	// Ephemeral events of the previous life are gone: a resume from before now is a gap,
	// except after a clean Close, whose last id is exactly seq.n.
	h.floor = h.next
	return h, nil
}

// newItem encodes e as one SSE frame with stream id n.
func newItem(n uint64, e Event, durable bool) (*item, error) {
	data, err := encodeCompact(e)
	if err != nil {
		return nil, fmt.Errorf("event %s: encode: %w", e.EventID, err)
	}
	frame := make([]byte, 0, len(data)+len(e.Kind)+48)
	frame = append(frame, "id: "...)
	frame = strconv.AppendUint(frame, n, 10)
	frame = append(frame, "\nevent: "...)
	frame = append(frame, e.Kind...)
	frame = append(frame, "\ndata: "...)
	frame = append(frame, data...)
	frame = append(frame, "\n\n"...)
	return &item{stream: n, durable: durable, frame: frame, from: e.From, channel: e.Channel}, nil
}

// Publish validates e, fills its envelope (schema version, source, from, seq, timestamp,
// canonical payload, event id) and delivers it, returning the event as delivered.
//
// Durable kinds are appended to the outbox and fsynced before Publish returns; a durable
// event whose id is still pending is not stored or delivered twice (Publish returns the
// pending copy). Ephemeral kinds are dropped silently when no subscriber is connected.
// A non-empty e.EventID must match the content: a re-send proves its identity.
func (h *Hub) Publish(ctx context.Context, e Event) (Event, error) {
	if err := ctx.Err(); err != nil {
		return Event{}, fmt.Errorf("events: publish %s: %w", e.Kind, err)
	}
	payload, err := normalizePayload(e.Payload)
	if err != nil {
		return Event{}, fmt.Errorf("%w: %s: %v", ErrInvalidEvent, e.Kind, err)
	}
	e.Payload = payload
	if err := Validate(e); err != nil {
		return Event{}, err
	}
	durable, _ := Durable(e.Kind)
	e.SchemaVersion = SchemaVersion
	if e.Source == "" {
		e.Source = h.cfg.Source
	}
	if e.From == "" {
		e.From = h.cfg.From
	}
	if e.Timestamp.IsZero() {
		e.Timestamp = h.cfg.Now().UTC()
	}
	claimed := e.EventID

	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return Event{}, ErrClosed
	}
	stream := h.next
	if e.Seq == 0 {
		e.Seq = stream
	}
	if e.EventID, err = ID(e); err != nil {
		return Event{}, err
	}
	if claimed != "" && claimed != e.EventID {
		return Event{}, fmt.Errorf("%w: %s: event_id %s does not match its content (%s)", ErrInvalidEvent, e.Kind, claimed, e.EventID)
	}
	if durable {
		if p, ok := h.byID[e.EventID]; ok {
			return p.event, nil
		}
	}
	if stream > h.reserved {
		// Reserve before use, so ids stay monotonic however the process dies.
		if err := writeSeq(h.cfg.Dir, seqState{n: stream + reserveBlock}); err != nil {
			return Event{}, err
		}
		h.reserved = stream + reserveBlock
	}
	it, err := newItem(stream, e, durable)
	if err != nil {
		return Event{}, err
	}
	if durable {
		if err := h.ob.append(record{Op: "put", Stream: stream, Event: &e}); err != nil {
			return Event{}, fmt.Errorf("event %s: %w", e.EventID, err)
		}
		if h.afterCommit != nil {
			h.afterCommit(e)
		}
		p := &pendingItem{stored: stored{stream: stream, event: e}, item: it}
		h.pending = append(h.pending, p)
		h.byID[e.EventID] = p
	}
	h.next++
	h.stats.Published++
	if h.cfg.Forward != nil {
		h.cfg.Forward(e, durable)
	}
	if !durable && len(h.subs) == 0 {
		h.stats.DroppedNoSub++
		return e, nil
	}
	h.remember(it)
	for s := range h.subs {
		h.offer(s, it)
	}
	return e, nil
}

// remember keeps it in the replay ring, evicting the oldest entry when full.
func (h *Hub) remember(it *item) {
	if len(h.ring) < h.cfg.BufferSize {
		h.ring = append(h.ring, it)
		return
	}
	old := h.ring[h.ringStart]
	h.floor = old.stream + 1
	h.ring[h.ringStart] = it
	h.ringStart = (h.ringStart + 1) % len(h.ring)
}

// ringAfter returns the ring entries with a stream id above n, oldest first.
func (h *Hub) ringAfter(n uint64) []*item {
	var out []*item
	for i := range h.ring {
		it := h.ring[(h.ringStart+i)%len(h.ring)]
		if it.stream > n {
			out = append(out, it)
		}
	}
	return out
}

// offer hands it to s without blocking. A full queue drops an ephemeral event (counted)
// or, for a durable one, puts s in catch-up mode: s skips live events until its writer
// has re-read the pending durable events, so nothing durable is lost and order holds.
func (h *Hub) offer(s *subscriber, it *item) {
	if !s.sees(it) {
		return
	}
	if s.lagging {
		if !it.durable {
			s.dropped.Add(1)
			h.stats.DroppedSlow++
		}
		return
	}
	select {
	case s.queue <- it:
	default:
		if !it.durable {
			s.dropped.Add(1)
			h.stats.DroppedSlow++
			return
		}
		s.lagging = true
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
}

// Ack acknowledges durable events by id; they are no longer replayed. It returns how
// many pending events it acknowledged (unknown or already acknowledged ids count zero).
func (h *Hub) Ack(ids []string) (int, error) { return h.AckVisible(ids, nil) }

// AckVisible is Ack for a viewer: ids of events v does not let it see count as unknown
// (nil v sees everything).
func (h *Hub) AckVisible(ids []string, v Visibility) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return 0, ErrClosed
	}
	var hit []string
	for _, id := range ids {
		if p, ok := h.byID[id]; ok && v.sees(p.item) {
			hit = append(hit, id)
		}
	}
	return h.retire(hit)
}

// AckChannel acknowledges every pending durable event of channel whose stream id is at
// most through (the SSE id a consumer has processed up to).
func (h *Hub) AckChannel(channel string, through uint64) (int, error) {
	return h.AckChannelVisible(channel, through, nil)
}

// AckChannelVisible is AckChannel for a viewer: only events v lets it see are
// acknowledged (nil v sees everything).
func (h *Hub) AckChannelVisible(channel string, through uint64, v Visibility) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return 0, ErrClosed
	}
	var hit []string
	for _, p := range h.pending {
		if p.event.Channel == channel && p.stream <= through && v.sees(p.item) {
			hit = append(hit, p.event.EventID)
		}
	}
	return h.retire(hit)
}

// retire commits an ack record for ids (all pending, distinct or not) and drops them
// from memory; it compacts the outbox once garbage dominates. h.mu is held.
func (h *Hub) retire(ids []string) (int, error) {
	seen := map[string]bool{}
	uniq := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			uniq = append(uniq, id)
		}
	}
	if len(uniq) == 0 {
		return 0, nil
	}
	if err := h.ob.append(record{Op: "ack", IDs: uniq}); err != nil {
		return 0, err
	}
	h.ob.acked += 1 + len(uniq)
	kept := h.pending[:0]
	for _, p := range h.pending {
		if !seen[p.event.EventID] {
			kept = append(kept, p)
		}
	}
	clear(h.pending[len(kept):])
	h.pending = kept
	for _, id := range uniq {
		delete(h.byID, id)
	}
	if h.ob.acked >= compactAfter && h.ob.acked > len(h.pending) {
		st := make([]stored, len(h.pending))
		for i, p := range h.pending {
			st[i] = p.stored
		}
		// A failed compaction leaves the old log intact and correct: report, keep going.
		if err := h.ob.compact(st); err != nil {
			return len(uniq), err
		}
	}
	return len(uniq), nil
}

// Pending returns the unacknowledged durable events, in stream order.
func (h *Hub) Pending() []Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]Event, len(h.pending))
	for i, p := range h.pending {
		out[i] = p.event
	}
	return out
}

// pendingVisible counts the unacknowledged durable events v lets its viewer see (nil v:
// all of them).
func (h *Hub) pendingVisible(v Visibility) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if v == nil {
		return len(h.pending)
	}
	n := 0
	for _, p := range h.pending {
		if v.sees(p.item) {
			n++
		}
	}
	return n
}

// Backlog is what a sender has waiting: the unacknowledged durable events of kind
// whose from is from, and the bytes of their frames. A server bounds what one sender
// may queue with it.
func (h *Hub) Backlog(from, kind string) (events, bytes int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, p := range h.pending {
		if p.event.From == from && p.event.Kind == kind {
			events++
			bytes += len(p.item.frame)
		}
	}
	return events, bytes
}

// Stats are counters of a hub's life.
type Stats struct {
	Published      uint64 // events accepted by Publish (durable re-sends excluded)
	DroppedNoSub   uint64 // ephemeral events dropped because nobody listened
	DroppedSlow    uint64 // ephemeral events dropped from full subscriber queues
	Subscribers    int    // connected subscribers now
	PendingDurable int    // unacknowledged durable events
}

// Stats returns the hub's counters.
func (h *Hub) Stats() Stats {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.stats
	s.Subscribers = len(h.subs)
	s.PendingDurable = len(h.pending)
	return s
}

// Close ends every subscriber stream, records the last stream id so a restart continues
// without a gap, and releases the outbox directory. Publish after Close returns
// ErrClosed. Close is idempotent.
func (h *Hub) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	h.closed = true
	for s := range h.subs {
		close(s.done)
		delete(h.subs, s)
	}
	err := writeSeq(h.cfg.Dir, seqState{clean: true, n: h.next - 1})
	return errors.Join(err, h.ob.close())
}
