package broker_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/broker"
)

// TestRedTeamNoAckForgery: ws-b tries to acknowledge ws-a's command while ws-a holds it
// unacknowledged (its sidecar took it and died before its outbox had it), so that the
// broker would never deliver it again: by publishing on ws-a's ack subject, and by
// naming that subject as the reply of a publish it may make — a pull on its own
// consumer (whose "no messages" status has an empty body, which is an ack) and a
// progress ack on its own ack subject (whose "ack of the ack" is empty too). Expected:
// the first is a publish violation, the other two reply-subject violations (nats-server
// reserves $JS.ACK. replies), and ws-a's command stays pending.
func TestRedTeamNoAckForgery(t *testing.T) {
	node, is := startIssued(t)
	cpCreds, _, bCreds := issueThree(t, is)
	cp := dialCreds(t, node.url(), cpCreds, "", nil)
	cpJS := ensureStreams(t, cp, 1)
	bErrs := &violations{}
	b := dialCreds(t, node.url(), bCreds, "ws-b", bErrs)
	ctx := context.Background()
	require.NoError(t, broker.EnsureCommandConsumer(ctx, cpJS, "ws-b"))
	require.NoError(t, broker.SendCommand(ctx, cpJS, "ws-a", "cmd-a-held", []byte(`{"command":"deploy","channel":"ws-a"}`), is.SignCommand))

	// ws-a's sidecar, as the broker sees it: the command delivered, never acknowledged.
	cons, err := cpJS.Consumer(ctx, broker.CommandStream, broker.CommandConsumer("ws-a"))
	require.NoError(t, err)
	batch, err := cons.Fetch(1, jetstream.FetchMaxWait(10*time.Second))
	require.NoError(t, err)
	var held jetstream.Msg
	for m := range batch.Messages() {
		held = m
	}
	require.NotNil(t, held, "ws-a's command was not delivered")
	ackA := held.Reply()
	require.Contains(t, ackA, "$JS.ACK.")

	own := broker.CommandConsumer("ws-b")
	require.NoError(t, b.Publish(ackA, nil))
	bErrs.await(t, "publish", ackA)
	require.NoError(t, b.PublishRequest("$JS.API.CONSUMER.MSG.NEXT."+broker.CommandStream+"."+own, ackA, []byte(`{"batch":1,"no_wait":true}`)))
	progress := nats.NewMsg("$JS.ACK." + broker.CommandStream + "." + own + ".1.1.1.0.0")
	progress.Reply, progress.Data = ackA, []byte("+WPI")
	require.NoError(t, b.PublishMsg(progress))
	require.NoError(t, b.Flush())
	eventually(t, arrives, func() bool {
		n := 0
		for _, e := range bErrs.snapshot() {
			if strings.Contains(strings.ToLower(e), strings.ToLower("publish with reply of \""+ackA+"\"")) {
				n++
			}
		}
		return n >= 2
	}, "the broker did not refuse both replies on ws-a's ack subject: %v", bErrs.snapshot())

	info, err := cons.Info(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, info.NumAckPending, "ws-a's command was acknowledged by ws-b")
	assert.Zero(t, info.AckFloor.Stream, "ws-a's ack floor moved")
}

// TestRedTeamNoJetStreamAPIDeputyPurge: ws-b may send a pull request to its own command
// consumer and acknowledge its own commands, and nats-server does not check a publish's
// reply subject against the publisher's permissions. The consumer answers on that reply
// subject as the account: a "no messages" status to a pull, an empty "ack of the ack"
// to a progress ack, both with an empty body. Named as the reply, the JetStream API's
// purge becomes a call ws-b may not make. Expected: both streams refuse purges
// (EnsureStreams sets DenyPurge and DenyDelete), and the command stream keeps its
// messages.
//
// OPEN (session 20): the same deputy deletes ws-a's command consumer
// ($JS.API.CONSUMER.DELETE…) or a whole stream ($JS.API.STREAM.DELETE…), which no stream
// setting refuses. Closing it needs a workspace that publishes on no subject the server
// acts on ($JS.ACK.*, $JS.API.CONSUMER.*): the workspaces in an account of their own
// without JetStream, reaching the streams through service imports (whose replies are
// mapped back into the importing account), or command delivery that needs no pull and
// no ack from the workspace. Both reach past this package (the issuer, the server's
// configuration, the conductor); see docs/broker.md, "What a workspace can still do".
func TestRedTeamNoJetStreamAPIDeputyPurge(t *testing.T) {
	tn := newTenants(t)
	ctx := context.Background()
	require.NoError(t, broker.SendCommand(ctx, tn.cpJS, "ws-a", "cmd-a-2", []byte(`{"command":"later","channel":"ws-a"}`), tn.is.SignCommand))
	own := broker.CommandConsumer("ws-b")
	pull := func(target string) error {
		return tn.bConn.PublishRequest("$JS.API.CONSUMER.MSG.NEXT."+broker.CommandStream+"."+own, target, []byte(`{"batch":1,"no_wait":true}`))
	}
	progress := func(target string) error {
		m := nats.NewMsg("$JS.ACK." + broker.CommandStream + "." + own + ".1.1.1.0.0")
		m.Reply, m.Data = target, []byte("+WPI")
		return tn.bConn.PublishMsg(m)
	}
	cs, err := tn.cpJS.Stream(ctx, broker.CommandStream)
	require.NoError(t, err)
	before, err := cs.Info(ctx)
	require.NoError(t, err)
	require.NotZero(t, before.State.Msgs)
	for _, send := range []func(string) error{pull, progress} {
		for _, stream := range []string{broker.CommandStream, broker.EventStream} {
			require.NoError(t, send("$JS.API.STREAM.PURGE."+stream))
		}
	}
	require.NoError(t, tn.bConn.Flush())
	time.Sleep(refused) // the server answers at once; this bounds the wait for nothing
	after, err := cs.Info(ctx)
	require.NoError(t, err)
	assert.Equal(t, before.State.Msgs, after.State.Msgs, "ws-b purged the command stream")
	for _, stream := range []string{broker.CommandStream, broker.EventStream} {
		s, err := tn.cpJS.Stream(ctx, stream)
		require.NoError(t, err)
		assert.True(t, s.CachedInfo().Config.DenyPurge, "%s allows purges", stream)
	}
}
