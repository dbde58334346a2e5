package broker_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/events"
)

// TestCommandsIn: a command a control plane puts in the command stream becomes a
// durable conductor:command in the workspace's outbox (what its agent reads on GET
// /events) from the control-plane caller's subject, and comes back out on the event
// stream. A command for a channel the control-plane caller may not address is not
// accepted.
func TestCommandsIn(t *testing.T) {
	node := singleNode(t)
	nc := connect(t, node.url())
	js := ensureStreams(t, nc, 1)
	cp := newControlPlane(t, js, "control")
	var runs atomic.Int64
	w := newWorkspace(t, nc, "ws-1", t.TempDir(), t.TempDir(), &runs, nil)

	ctx := context.Background()
	require.NoError(t, broker.SendCommand(ctx, js, "ws-1", "c-1", []byte(`{"command":"wrong-channel","channel":"ws-3"}`), nil))
	require.NoError(t, broker.SendCommand(ctx, js, "ws-1", "c-2", []byte(`{"command":"pause","channel":"ws-1","args":{"minutes":10}}`), nil))
	require.NoError(t, broker.SendCommand(ctx, js, "ws-1", "c-2", []byte(`{"command":"pause","channel":"ws-1","args":{"minutes":10}}`), nil), "a repeat within the dedup window")

	got, _ := cp.collect(t, 1, arrives)
	require.Len(t, got, 1)
	ev := got[0].event
	assert.Equal(t, events.KindCommand, ev.Kind)
	assert.Equal(t, "pause", ev.Payload["command"])
	assert.Equal(t, "ws-1", ev.Channel)
	assert.Equal(t, "ws-1", ev.From, "on the broker, from is the enrolled subject")
	assert.Regexp(t, `^nats:CMDBRIDGE_COMMANDS:\d+$`, ev.CallID, "the stream sequence names the command")
	// The counter is bumped once AcceptCommand returns, which may be after the event
	// already left the outbox and reached us.
	eventually(t, arrives, func() bool { return w.sc.Stats().Commands == 1 },
		"the commands counter never reached 1")

	// Nothing else arrives: the refused commands were terminated, the repeat dropped.
	more, _ := cp.collect(t, 1, time.Second)
	assert.Empty(t, more)
	// A redelivered command (same stream sequence) keeps its event_id, and the control
	// plane gets it once even after the first copy already left the outbox.
	claims := controlCaller("ws-1").Claims()
	body := []byte(`{"command":"resume","channel":"ws-1"}`)
	first, status, _ := w.srv.AcceptCommand(claims, body, 99, "nats:CMDBRIDGE_COMMANDS:99")
	require.Equal(t, 202, status)
	got, _ = cp.collect(t, 1, arrives)
	require.Len(t, got, 1)
	eventually(t, arrives, func() bool { return len(w.hub.Pending()) == 0 }, "first copy not drained")
	again, status, _ := w.srv.AcceptCommand(claims, body, 99, "nats:CMDBRIDGE_COMMANDS:99")
	require.Equal(t, 202, status)
	assert.Equal(t, first.EventID, again.EventID)
	eventually(t, arrives, func() bool { return len(w.hub.Pending()) == 0 }, "second copy not drained")
	more, _ = cp.collect(t, 1, time.Second)
	assert.Empty(t, more, "the stream's duplicate window dropped the re-send")

	// The refusal is reported once. On a loaded machine the command consumer's fetches
	// may also report a missed heartbeat or no responders; it retries those, and they
	// are not what this test counts.
	var refusals []error
	for _, err := range w.errors() {
		if strings.Contains(err.Error(), "refused (403)") {
			refusals = append(refusals, err)
		}
	}
	assert.Len(t, refusals, 1, "the refusal is reported once: %v", w.errors())
}

// TestEnsureCommandConsumerRemakes: a command consumer that is not the pinned pull
// consumer — a push consumer, another filter — is deleted and made again.
func TestEnsureCommandConsumerRemakes(t *testing.T) {
	node := singleNode(t)
	nc := connect(t, node.url())
	js := ensureStreams(t, nc, 1)
	ctx := context.Background()
	for name, bad := range map[string]jetstream.ConsumerConfig{
		"push":    {DeliverSubject: "cmdbridge.ws-x.events.conductor:command", FilterSubject: broker.CommandSubject("ws-1")},
		"filter":  {FilterSubject: "cmdbridge.*.commands"},
		"filters": {FilterSubjects: []string{broker.CommandSubject("ws-1"), broker.CommandSubject("ws-2")}},
	} {
		t.Run(name, func(t *testing.T) {
			bad.Durable, bad.AckPolicy = broker.CommandConsumer("ws-1"), jetstream.AckExplicitPolicy
			_ = js.DeleteConsumer(ctx, broker.CommandStream, bad.Durable) // left by the previous case
			_, err := js.CreateConsumer(ctx, broker.CommandStream, bad)
			require.NoError(t, err)
			require.NoError(t, broker.EnsureCommandConsumer(ctx, js, "ws-1"))
			c, err := js.Consumer(ctx, broker.CommandStream, bad.Durable)
			require.NoError(t, err)
			cfg := c.CachedInfo().Config
			assert.Empty(t, cfg.DeliverSubject)
			assert.Equal(t, broker.CommandSubject("ws-1"), cfg.FilterSubject)
			assert.Empty(t, cfg.FilterSubjects)
		})
	}
}
