package events_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/events"
)

var fixedNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestPublishFillsEnvelope(t *testing.T) {
	h, _ := newHub(t, events.Config{Source: "ws-7", From: "ws-7:phone:d1", Now: func() time.Time { return fixedNow }})
	got := mustPublish(t, h, events.Command("ops", "pause", map[string]any{"n": 3}))

	assert.Equal(t, events.SchemaVersion, got.SchemaVersion)
	assert.Equal(t, "ws-7", got.Source)
	assert.Equal(t, "ws-7:phone:d1", got.From)
	assert.Equal(t, fixedNow, got.Timestamp)
	assert.Equal(t, uint64(1), got.Seq, "a fresh hub's first stream id")
	want, err := events.ID(got)
	require.NoError(t, err)
	assert.Equal(t, want, got.EventID)

	second := mustPublish(t, h, events.Command("ops", "pause", map[string]any{"n": 3}))
	assert.Equal(t, uint64(2), second.Seq)
	assert.NotEqual(t, got.EventID, second.EventID, "identical-looking events differ by seq")
}

func TestPublishRejects(t *testing.T) {
	h, _ := newHub(t, events.Config{})
	ctx := context.Background()

	_, err := h.Publish(ctx, events.Event{Kind: "conductor:unknown"})
	assert.ErrorIs(t, err, events.ErrUnknownKind)

	bad := events.Command("ops", "pause", nil)
	bad.EventID = strings.Repeat("0", 64)
	_, err = h.Publish(ctx, bad)
	assert.ErrorIs(t, err, events.ErrInvalidEvent, "a claimed id must match the content")

	_, err = h.Publish(ctx, events.Command("ops", "pause", map[string]any{"f": func() {}}))
	assert.ErrorIs(t, err, events.ErrInvalidEvent, "payload must be JSON")

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = h.Publish(cancelled, events.Command("ops", "pause", nil))
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, h.Pending())
}

func TestDurableResendKeepsIDAndIsStoredOnce(t *testing.T) {
	h, _ := newHub(t, events.Config{})
	first := mustPublish(t, h, events.Command("ops", "pause", nil))

	resend := first
	resend.Timestamp = time.Time{} // a re-sender need not remember the time
	again := mustPublish(t, h, resend)

	assert.Equal(t, first.EventID, again.EventID)
	assert.Equal(t, first.Timestamp, again.Timestamp, "the pending copy is returned")
	assert.Len(t, h.Pending(), 1)
}

func TestEphemeralDroppedWithoutSubscriber(t *testing.T) {
	h, base := newHub(t, events.Config{})
	dropped := mustPublish(t, h, events.TurnStarted("r", "t1", nil))
	assert.Equal(t, uint64(1), h.Stats().DroppedNoSub)
	assert.Empty(t, h.Pending())

	// Even a resume from before it does not bring it back: it was never kept.
	s := connect(t, base, "0")
	waitSubscribers(t, h, 1)
	marker := mustPublish(t, h, events.TurnCompleted("r", "t1", nil))
	f, err := s.nextEvent()
	require.NoError(t, err)
	assert.Equal(t, marker.EventID, f.envelope(t).EventID)
	assert.NotEqual(t, dropped.EventID, f.envelope(t).EventID)
	assert.Equal(t, uint64(1), h.Stats().DroppedNoSub, "with a subscriber nothing is dropped")
}

func TestRetryAndHeartbeat(t *testing.T) {
	_, base := newHub(t, events.Config{Heartbeat: 10 * time.Millisecond, Retry: 1500 * time.Millisecond})
	s := connect(t, base, "")
	first, err := s.next()
	require.NoError(t, err)
	assert.Equal(t, "1500", first.Retry, "retry is announced at connect")
	assert.Equal(t, "text/event-stream", s.resp.Header.Get("Content-Type"))

	for range 3 {
		f, err := s.next()
		require.NoError(t, err)
		assert.Equal(t, []string{"heartbeat"}, f.Comments)
		assert.Empty(t, f.Event)
	}
}

func TestResumeDeliversExactlyTheMissingEvents(t *testing.T) {
	for _, via := range []string{"header", "query"} {
		t.Run(via, func(t *testing.T) {
			h, base := newHub(t, events.Config{})
			watcher := connect(t, base, "") // keeps ephemeral events alive
			waitSubscribers(t, h, 1)
			var published []events.Event
			for i := range 10 {
				published = append(published, mustPublish(t, h, events.ToolCalled("r", fmt.Sprint("c", i), "wu:status", nil)))
			}
			for i := range 4 {
				f, err := watcher.nextEvent()
				require.NoError(t, err)
				require.Equal(t, published[i].EventID, f.envelope(t).EventID)
			}
			lastSeen := "4" // the watcher "disconnects" after stream id 4

			var s *stream
			if via == "header" {
				s = connect(t, base, lastSeen)
			} else {
				s = connectURL(t, base+"/events?last_event_id="+lastSeen, "")
			}
			waitSubscribers(t, h, 2)
			live := mustPublish(t, h, events.TurnStarted("r", "t2", nil))

			want := append(published[4:], live)
			for i, e := range want {
				f, err := s.nextEvent()
				require.NoError(t, err)
				assert.Equal(t, fmt.Sprint(5+i), f.ID, "stream ids continue")
				assert.Equal(t, e.Kind, f.Event)
				assert.Equal(t, e.EventID, f.envelope(t).EventID, "event %d", i)
			}
		})
	}
}

func TestResumeOlderThanBufferReportsGap(t *testing.T) {
	h, base := newHub(t, events.Config{BufferSize: 3})
	connect(t, base, "")
	waitSubscribers(t, h, 1)
	for i := range 6 {
		mustPublish(t, h, events.ToolCalled("r", fmt.Sprint("c", i), "wu:status", nil))
	}

	s := connect(t, base, "1")
	f, err := s.nextEvent()
	require.NoError(t, err)
	assert.Equal(t, events.KindGap, f.Event)
	assert.Empty(t, f.ID, "a gap notice must not move the client's last id")
	assert.Contains(t, f.Data, `"oldest_id":4`)
	for _, id := range []string{"4", "5", "6"} {
		f, err := s.nextEvent()
		require.NoError(t, err)
		assert.Equal(t, id, f.ID)
	}
}

func TestResumeRejectsMalformedID(t *testing.T) {
	_, base := newHub(t, events.Config{})
	resp, err := httpGet(base+"/events", "Last-Event-ID", "abc")
	require.NoError(t, err)
	assert.Equal(t, 400, resp)
}

func TestDurableReplayedUntilAckedFIFOPerChannel(t *testing.T) {
	dir := t.TempDir()
	h, base := newHub(t, events.Config{Dir: dir})
	// Nobody listens: durable events wait in the outbox, interleaved across channels.
	var a, b []events.Event
	for i := range 3 {
		a = append(a, mustPublish(t, h, events.Command("a", fmt.Sprint("a", i), nil)))
		b = append(b, mustPublish(t, h, events.ApprovalRequested("b", "r", fmt.Sprint("c", i), fmt.Sprint("ap", i), "wu:delete", nil)))
	}

	byChannel := func(s *stream, n int) map[string][]string {
		got := map[string][]string{}
		for range n {
			f, err := s.nextEvent()
			require.NoError(t, err)
			e := f.envelope(t)
			got[e.Channel] = append(got[e.Channel], e.EventID)
		}
		return got
	}
	ids := func(es []events.Event) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.EventID)
		}
		return out
	}

	first := byChannel(connect(t, base, ""), 6)
	assert.Equal(t, ids(a), first["a"])
	assert.Equal(t, ids(b), first["b"])

	// Not acknowledged yet: a second consumer gets them again, same ids.
	second := byChannel(connect(t, base, ""), 6)
	assert.Equal(t, first, second)

	code, body := postAck(t, base, fmt.Sprintf(`{"event_ids":[%q,%q,"unknown"]}`, a[0].EventID, b[0].EventID))
	require.Equal(t, 200, code, body)
	assert.JSONEq(t, `{"acked":2,"pending":4}`, body)
	code, body = postAck(t, base, fmt.Sprintf(`{"channel":"a","through_id":%d}`, a[1].Seq))
	require.Equal(t, 200, code, body)
	assert.JSONEq(t, `{"acked":1,"pending":3}`, body)

	third := byChannel(connect(t, base, ""), 3)
	assert.Equal(t, ids(a[2:]), third["a"])
	assert.Equal(t, ids(b[1:]), third["b"])

	// A restart keeps exactly the unacknowledged ones, ids unchanged.
	require.NoError(t, h.Close())
	h2, err := events.NewHub(events.Config{Dir: dir})
	require.NoError(t, err)
	defer h2.Close()
	assert.Equal(t, []string{b[1].EventID, a[2].EventID, b[2].EventID}, ids(h2.Pending()))
}

func TestAckRejectsMalformedBodies(t *testing.T) {
	_, base := newHub(t, events.Config{})
	for _, body := range []string{`{`, `{}`, `{"event_ids":[]}`, `{"channel":"a"}`, `{"through_id":3}`, `{"nope":1}`} {
		code, _ := postAck(t, base, body)
		assert.Equal(t, 400, code, body)
	}
}

func TestConcurrentPublishers(t *testing.T) {
	h, base := newHub(t, events.Config{QueueSize: 4096})
	s := connect(t, base, "")
	waitSubscribers(t, h, 1)

	const workers, each = 8, 40
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				e := events.ToolCalled("r", "c", "wu:status", nil) // identical content on purpose
				if i%4 == 0 {
					e = events.Command(fmt.Sprint("w", w), "same", nil)
				}
				_, err := h.Publish(context.Background(), e)
				assert.NoError(t, err)
			}
		}()
	}
	wg.Wait()

	seen := map[string]bool{}
	var last uint64
	for range workers * each {
		f, err := s.nextEvent()
		require.NoError(t, err)
		id := f.streamID(t)
		assert.Greater(t, id, last, "stream ids strictly increase")
		last = id
		e := f.envelope(t)
		assert.False(t, seen[e.EventID], "duplicate id %s", e.EventID)
		seen[e.EventID] = true
	}
	assert.Len(t, h.Pending(), workers*each/4)
	assert.Zero(t, h.Stats().DroppedSlow)
}

func TestStreamIDsSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	h, err := events.NewHub(events.Config{Dir: dir})
	require.NoError(t, err)
	last := mustPublish(t, h, events.Command("a", "x", nil))
	require.NoError(t, h.Close())
	_, err = h.Publish(context.Background(), events.Command("a", "y", nil))
	assert.ErrorIs(t, err, events.ErrClosed)

	h2, base := newHub(t, events.Config{Dir: dir})
	next := mustPublish(t, h2, events.Command("a", "x", nil))
	assert.Equal(t, last.Seq+1, next.Seq, "a clean restart continues the sequence")
	assert.NotEqual(t, last.EventID, next.EventID)

	// A resume from the last id of the previous life is complete: no gap notice.
	s := connect(t, base, fmt.Sprint(last.Seq))
	f, err := s.nextEvent()
	require.NoError(t, err)
	assert.Equal(t, next.EventID, f.envelope(t).EventID)
}

func TestSecondHubOnSameDirRefused(t *testing.T) {
	dir := t.TempDir()
	newHub(t, events.Config{Dir: dir})
	_, err := events.NewHub(events.Config{Dir: dir})
	assert.ErrorContains(t, err, "in use by another server")
	assert.ErrorContains(t, err, fmt.Sprintf("(pid %d: ", os.Getpid()), "the message names the process that holds the workspace")
	assert.ErrorContains(t, err, "stop that one first")
}

func TestCloseEndsStreams(t *testing.T) {
	h, base := newHub(t, events.Config{})
	s := connect(t, base, "")
	waitSubscribers(t, h, 1)
	require.NoError(t, h.Close())
	_, err := s.nextEvent()
	assert.Error(t, err, "the stream ends")
}

func TestOutboxCompaction(t *testing.T) {
	defer events.SetCompactAfter(8)()
	dir := t.TempDir()
	h, _ := newHub(t, events.Config{Dir: dir})
	var keep events.Event
	for i := range 20 {
		e := mustPublish(t, h, events.Command("a", fmt.Sprint(i), nil))
		if i == 19 {
			keep = e
			break
		}
		_, err := h.Ack([]string{e.EventID})
		require.NoError(t, err)
	}
	data, err := os.ReadFile(filepath.Join(dir, events.OutboxName))
	require.NoError(t, err)
	lines := strings.Count(string(data), "\n")
	assert.Less(t, lines, 20, "acknowledged events are compacted away:\n%s", data)
	assert.Equal(t, []events.Event{keep}, h.Pending())
}

func TestOutboxTornTail(t *testing.T) {
	dir := t.TempDir()
	h, err := events.NewHub(events.Config{Dir: dir})
	require.NoError(t, err)
	e := mustPublish(t, h, events.Command("a", "x", nil))
	require.NoError(t, h.Close())

	path := filepath.Join(dir, events.OutboxName)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"op":"put","stream":9,"event":{"kin`) // a crash mid-append
	require.NoError(t, err)
	require.NoError(t, f.Close())

	h2, err := events.NewHub(events.Config{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, []string{e.EventID}, []string{h2.Pending()[0].EventID})
	next := mustPublish(t, h2, events.Command("a", "y", nil))
	require.NoError(t, h2.Close())

	h3, err := events.NewHub(events.Config{Dir: dir})
	require.NoError(t, err)
	defer h3.Close()
	require.Len(t, h3.Pending(), 2, "the torn tail was cut, so later appends stay readable")
	assert.Equal(t, next.EventID, h3.Pending()[1].EventID)
}

func TestOutboxCorruptMiddleRefused(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, events.OutboxName), []byte("garbage\n{\"op\":\"ack\",\"ids\":[\"x\"]}\n"), 0o644))
	_, err := events.NewHub(events.Config{Dir: dir})
	assert.ErrorContains(t, err, "outbox line 1")
}

func TestSlowSubscriberGetsEveryDurableInOrder(t *testing.T) {
	h, base := newHub(t, events.Config{QueueSize: 1})
	s := connect(t, base, "")
	waitSubscribers(t, h, 1)

	// Bursts of cheap ephemeral events outrun the writer and overflow its queue of one.
	const n, burst = 30, 20
	var durable []string
	for i := range n {
		for j := range burst {
			mustPublish(t, h, events.ToolCalled("r", fmt.Sprint("c", i, ".", j), "wu:status", nil))
		}
		durable = append(durable, mustPublish(t, h, events.Command("a", fmt.Sprint(i), nil)).EventID)
	}

	var got []string
	ephemeral := 0
	var last uint64
	for len(got) < n {
		f, err := s.nextEvent()
		require.NoError(t, err)
		id := f.streamID(t)
		require.Greater(t, id, last, "order holds through catch-up")
		last = id
		if f.Event == events.KindCommand {
			got = append(got, f.envelope(t).EventID)
		} else {
			ephemeral++
		}
	}
	assert.Equal(t, durable, got, "no durable event is lost or reordered")
	// Every ephemeral event before the last durable one was either delivered or counted.
	assert.Equal(t, uint64(n*burst), uint64(ephemeral)+h.Stats().DroppedSlow)
	t.Logf("ephemeral delivered %d, dropped %d", ephemeral, h.Stats().DroppedSlow)
}

func TestResumeFromUnissuedIDIsFreshWithGap(t *testing.T) {
	h, base := newHub(t, events.Config{})
	connect(t, base, "")
	waitSubscribers(t, h, 1)
	mustPublish(t, h, events.TurnStarted("r", "t1", nil)) // kept in the ring, not durable
	cmd := mustPublish(t, h, events.Command("a", "x", nil))

	s := connect(t, base, "999")
	f, err := s.nextEvent()
	require.NoError(t, err)
	assert.Equal(t, events.KindGap, f.Event)
	assert.Contains(t, f.Data, `"last_event_id":999`)
	f, err = s.nextEvent()
	require.NoError(t, err)
	assert.Equal(t, cmd.EventID, f.envelope(t).EventID, "like a fresh stream: pending durable events only")
}
