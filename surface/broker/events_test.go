package broker_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/events"
)

// TestEventsOut: durable events reach the event stream under their workspace's escaped
// subject with event_id as the message id, in order, and leave the outbox once
// JetStream acknowledged them; ephemeral ones are plain publishes that a live
// subscriber gets and the stream never keeps.
func TestEventsOut(t *testing.T) {
	node := singleNode(t)
	nc := connect(t, node.url())
	js := ensureStreams(t, nc, 1)
	cp := newControlPlane(t, js, "control")

	live := connect(t, node.url())
	tail, err := live.SubscribeSync("cmdbridge.*.events.>")
	require.NoError(t, err)
	require.NoError(t, live.Flush())

	var runs atomic.Int64
	w := newWorkspace(t, nc, "acme.ws:phone:dev-1", t.TempDir(), t.TempDir(), &runs, nil)
	ids := publishDurable(t, w.hub, "acme.ws", 20)
	eph, err := w.hub.Publish(context.Background(), events.ToolCalled("run-1", "call-1", "t:echo", nil))
	require.NoError(t, err)

	got, dups := cp.collect(t, len(ids), arrives)
	require.Len(t, got, len(ids))
	assert.Zero(t, dups)
	for i, r := range got {
		assert.Equal(t, ids[i], r.event.EventID, "order kept")
		assert.Equal(t, "acme.ws:phone:dev-1", r.event.From, "from is the enrolled subject")
		assert.Equal(t, events.KindCommand, r.event.Kind)
	}
	eventually(t, arrives, func() bool { return len(w.hub.Pending()) == 0 }, "outbox still holds %d events", len(w.hub.Pending()))

	// The live tail sees everything, the tool_called included, on escaped subjects.
	seen := map[string]string{}
	for len(seen) < len(ids)+1 {
		m, err := tail.NextMsg(10 * time.Second)
		require.NoError(t, err, "live tail stalled after %d", len(seen))
		seen[m.Header.Get(nats.MsgIdHdr)] = m.Subject
	}
	assert.Equal(t, "cmdbridge.acme%2Ews.events.agent-runtime:tool_called", seen[eph.EventID])
	assert.Equal(t, "cmdbridge.acme%2Ews.events.conductor:command", seen[ids[0]])

	info, err := js.Stream(context.Background(), broker.EventStream)
	require.NoError(t, err)
	assert.Equal(t, uint64(len(ids)), info.CachedInfo().State.Msgs, "the stream keeps durable kinds only")
	// The counter is bumped after an event leaves the outbox: wait for it, do not race it.
	eventually(t, arrives, func() bool { return w.sc.Stats().Durable == uint64(len(ids)) },
		"durable counter %d, want %d", w.sc.Stats().Durable, len(ids))
	assert.GreaterOrEqual(t, w.sc.Stats().Ephemeral, uint64(1))
}

// TestBrokerDownDrainsInOrder: with the broker away, publishing never blocks and
// durable events wait in the outbox; when it returns they drain in order, once.
func TestBrokerDownDrainsInOrder(t *testing.T) {
	node := singleNode(t)
	nc := connect(t, node.url())
	js := ensureStreams(t, nc, 1)
	cp := newControlPlane(t, js, "control")
	var runs atomic.Int64
	w := newWorkspace(t, nc, "ws-1", t.TempDir(), t.TempDir(), &runs, nil)

	first := publishDurable(t, w.hub, "ws-1", 5)
	eventually(t, arrives, func() bool { return len(w.hub.Pending()) == 0 }, "first events not drained")

	// Restart on the same port and store: the client reconnects by itself.
	opts := *node.opts
	opts.Port = node.srv.Addr().(*net.TCPAddr).Port
	node.stop()
	start := time.Now()
	second := publishDurable(t, w.hub, "ws-1", 30)
	assert.Less(t, time.Since(start), 5*time.Second, "publishing does not wait for the broker")
	assert.Len(t, w.hub.Pending(), 30, "durable events wait in the outbox")
	// A tool call over HTTP publishes its tool_called while the broker is away, and does
	// not wait for it.
	ts := httptest.NewServer(w.srv)
	defer ts.Close()
	req, err := http.NewRequest("POST", ts.URL+"/tools/t:echo", strings.NewReader(`{"text":"offline"}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+mint(t, "ws-1", []string{"t:*"}, false))
	start = time.Now()
	resp, err := ts.Client().Do(req)
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
	assert.Less(t, time.Since(start), 5*time.Second, "a call does not wait for the broker")

	startNode(t, opts)
	eventually(t, arrives, func() bool { return len(w.hub.Pending()) == 0 }, "outbox not drained after the broker returned: %d left", len(w.hub.Pending()))

	got, dups := cp.collect(t, len(first)+len(second), arrives)
	require.Len(t, got, len(first)+len(second))
	want := append(append([]string{}, first...), second...)
	for i, r := range got {
		assert.Equal(t, want[i], r.event.EventID, "position %d", i)
	}
	assert.Zero(t, dups)
	assert.Equal(t, "step", got[len(got)-1].event.Payload["command"])
}

// TestWorkspacesNeverShareAnEventID: two workspaces publishing identical content (same
// kind, payload and seq) both reach the control plane: the enrolled subject is the
// events' source, an input of the id, so the stream's duplicate window keeps both.
func TestWorkspacesNeverShareAnEventID(t *testing.T) {
	node := singleNode(t)
	nc := connect(t, node.url())
	js := ensureStreams(t, nc, 1)
	cp := newControlPlane(t, js, "control")
	var runs atomic.Int64
	a := newWorkspace(t, nc, "ws-a", t.TempDir(), t.TempDir(), &runs, nil)
	b := newWorkspace(t, nc, "ws-b", t.TempDir(), t.TempDir(), &runs, nil)
	ea, err := a.hub.Publish(context.Background(), events.Command("ops", "pause", nil))
	require.NoError(t, err)
	eb, err := b.hub.Publish(context.Background(), events.Command("ops", "pause", nil))
	require.NoError(t, err)
	require.Equal(t, ea.Seq, eb.Seq)
	assert.NotEqual(t, ea.EventID, eb.EventID)
	got, _ := cp.collect(t, 2, arrives)
	require.Len(t, got, 2)
}
