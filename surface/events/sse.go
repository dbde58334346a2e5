package events

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"sync/atomic"
	"time"
)

// subscriber is one connected SSE stream. Fields without a comment are guarded by the
// hub's mutex.
type subscriber struct {
	visible Visibility // nil: every event
	queue   chan *item
	wake    chan struct{} // cap 1: the hub put the subscriber in catch-up mode
	done    chan struct{} // closed by Hub.Close
	lagging bool
	dropped atomic.Uint64 // ephemeral events this subscriber missed
}

// gapNotice is the data of a stream:gap control event.
type gapNotice struct {
	SchemaVersion int    `json:"schema_version"`
	Kind          string `json:"kind"`
	LastEventID   uint64 `json:"last_event_id"`
	OldestID      uint64 `json:"oldest_id"`
	Reason        string `json:"reason"`
}

// Handler serves GET /events (SSE) and POST /events/ack. Mount it so it sees those paths
// unchanged (for example mux.Handle("/events", h) and mux.Handle("/events/ack", h)).
// Authentication is the caller's job.
func (h *Hub) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /events", h.serveStream)
	mux.HandleFunc("POST /events/ack", h.serveAck)
	return mux
}

// parseLastID reads the resume point: the Last-Event-ID header, else ?last_event_id=.
func parseLastID(r *http.Request) (id uint64, resume bool, err error) {
	raw := r.Header.Get("Last-Event-ID")
	if raw == "" {
		raw = r.URL.Query().Get("last_event_id")
	}
	if raw == "" {
		return 0, false, nil
	}
	id, err = strconv.ParseUint(raw, 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("last event id %q is not a stream id", raw)
	}
	return id, true, nil
}

func (h *Hub) serveStream(w http.ResponseWriter, r *http.Request) {
	last, resume, err := parseLastID(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s := &subscriber{
		visible: visibilityOf(r.Context()),
		queue:   make(chan *item, h.cfg.QueueSize),
		wake:    make(chan struct{}, 1),
		done:    make(chan struct{}),
	}
	backlog, gap, ok := h.subscribe(s, last, resume)
	if !ok {
		http.Error(w, ErrClosed.Error(), http.StatusServiceUnavailable)
		return
	}
	defer h.unsubscribe(s)

	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	hdr.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)

	sw := &streamWriter{w: w, rc: http.NewResponseController(w), timeout: h.cfg.WriteTimeout}
	sw.write(fmt.Appendf(nil, "retry: %d\n\n", h.cfg.Retry.Milliseconds()))
	if gap != nil {
		data, _ := json.Marshal(gap)
		sw.write(fmt.Appendf(nil, "event: %s\ndata: %s\n\n", KindGap, data))
	}
	var sent uint64 // highest stream id written
	for _, it := range backlog {
		sw.write(it.frame)
		sent = it.stream
	}
	sw.flush()

	beat := time.NewTicker(h.cfg.Heartbeat)
	defer beat.Stop()
	var reported uint64
	for sw.err == nil {
		select {
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		case it := <-s.queue:
			sw.write(it.frame)
			sent = it.stream
		case <-s.wake:
			for _, it := range h.catchUp(s, sent) {
				sw.write(it.frame)
				sent = it.stream
			}
		case <-beat.C:
			sw.write([]byte(": heartbeat\n\n"))
		}
		// Tell a slow consumer it missed telemetry, so it never mistakes a gap for calm.
		if d := s.dropped.Load(); d != reported {
			sw.write(fmt.Appendf(nil, ": dropped %d ephemeral events\n\n", d-reported))
			reported = d
		}
		sw.flush()
	}
}

// subscribe registers s and returns what it must receive before live events, under one
// lock so nothing falls between the backlog and the queue.
func (h *Hub) subscribe(s *subscriber, last uint64, resume bool) (backlog []*item, gap *gapNotice, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, nil, false
	}
	h.subs[s] = struct{}{}
	if resume && last > h.next-1 {
		// An id this hub never issued (a reset outbox directory): say so, then treat the
		// stream as fresh.
		gap = &gapNotice{SchemaVersion: SchemaVersion, Kind: KindGap, LastEventID: last, OldestID: h.floor,
			Reason: "last event id is newer than this stream"}
		resume = false
	}
	if !resume {
		// A fresh stream starts with every unacknowledged durable event, then live ones.
		for _, p := range h.pending {
			if s.sees(p.item) {
				backlog = append(backlog, p.item)
			}
		}
		return backlog, gap, true
	}
	if last+1 < h.floor {
		gap = &gapNotice{SchemaVersion: SchemaVersion, Kind: KindGap, LastEventID: last, OldestID: h.floor,
			Reason: "events after last event id are no longer buffered; durable events still follow"}
	}
	seen := map[uint64]bool{}
	for _, it := range h.ringAfter(last) {
		seen[it.stream] = true
		if s.sees(it) {
			backlog = append(backlog, it)
		}
	}
	for _, p := range h.pending {
		if p.stream > last && !seen[p.stream] && s.sees(p.item) {
			backlog = append(backlog, p.item)
		}
	}
	sort.Slice(backlog, func(i, j int) bool { return backlog[i].stream < backlog[j].stream })
	return backlog, gap, true
}

func (s *subscriber) sees(it *item) bool { return s.visible.sees(it) }

func (h *Hub) unsubscribe(s *subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, s)
}

// catchUp ends s's catch-up mode: it drains the queue (events older than the one that
// did not fit) and appends the pending durable events after them, in stream order.
func (h *Hub) catchUp(s *subscriber, sent uint64) []*item {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []*item
drain:
	for {
		select {
		case it := <-s.queue:
			out = append(out, it)
			sent = it.stream
		default:
			break drain
		}
	}
	for _, p := range h.pending {
		if p.stream > sent && s.sees(p.item) {
			out = append(out, p.item)
		}
	}
	s.lagging = false
	return out
}

// streamWriter writes frames with a deadline and remembers the first error, after which
// it writes nothing.
type streamWriter struct {
	w       io.Writer
	rc      *http.ResponseController
	timeout time.Duration
	err     error
}

func (sw *streamWriter) write(b []byte) {
	if sw.err != nil {
		return
	}
	// A deadline keeps a consumer that stopped reading from pinning this goroutine;
	// writers that cannot take one simply go without.
	if err := sw.rc.SetWriteDeadline(time.Now().Add(sw.timeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		sw.err = err
		return
	}
	_, sw.err = sw.w.Write(b)
}

func (sw *streamWriter) flush() {
	if sw.err != nil {
		return
	}
	if err := sw.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		sw.err = err
	}
}

// ackRequest is the body of POST /events/ack: ids, a channel cursor, or both.
type ackRequest struct {
	EventIDs  []string `json:"event_ids"`
	Channel   *string  `json:"channel"`
	ThroughID uint64   `json:"through_id"`
}

// ackResponse is its answer. Pending counts the durable events the viewer may see: a
// count of everyone's would tell a viewer when other subjects are asked or sent
// something.
type ackResponse struct {
	Acked   int `json:"acked"`
	Pending int `json:"pending"`
}

func (h *Hub) serveAck(w http.ResponseWriter, r *http.Request) {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20))
	dec.DisallowUnknownFields()
	var req ackRequest
	if err := dec.Decode(&req); err != nil {
		http.Error(w, "ack: malformed JSON body: "+err.Error(), http.StatusBadRequest)
		return
	}
	if len(req.EventIDs) == 0 && req.Channel == nil {
		http.Error(w, `ack: body needs "event_ids" or "channel" with "through_id"`, http.StatusBadRequest)
		return
	}
	if (req.Channel == nil) != (req.ThroughID == 0) {
		http.Error(w, `ack: "channel" and "through_id" go together`, http.StatusBadRequest)
		return
	}
	total := 0
	visible := visibilityOf(r.Context())
	if len(req.EventIDs) > 0 {
		n, err := h.AckVisible(req.EventIDs, visible)
		total += n
		if err != nil {
			ackFailed(w, err)
			return
		}
	}
	if req.Channel != nil {
		n, err := h.AckChannelVisible(*req.Channel, req.ThroughID, visible)
		total += n
		if err != nil {
			ackFailed(w, err)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(ackResponse{Acked: total, Pending: h.pendingVisible(visible)})
}

func ackFailed(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	if errors.Is(err, ErrClosed) {
		code = http.StatusServiceUnavailable
	}
	http.Error(w, "ack: "+err.Error(), code)
}
