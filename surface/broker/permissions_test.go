package broker_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/events"
)

// TestWorkspacePermissionsSuffice: a sidecar whose NATS user has only
// WorkspacePermissions drains its events, answers calls and consumes its commands, and
// the broker refuses it another workspace's subjects.
func TestWorkspacePermissionsSuffice(t *testing.T) {
	p := broker.WorkspacePermissions("ws-a")
	node := startNode(t, server.Options{
		Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true,
		Users: []*server.User{
			{Username: "control", Password: "cp"},
			{Username: "ws-a", Password: "wa", Permissions: &server.Permissions{
				Publish:   &server.SubjectPermission{Allow: p.Publish},
				Subscribe: &server.SubjectPermission{Allow: p.Subscribe},
				Response:  &server.ResponsePermission{MaxMsgs: 1},
			}},
		},
	})
	cpConn, err := nats.Connect(node.url(), nats.UserInfo("control", "cp"))
	require.NoError(t, err)
	t.Cleanup(cpConn.Close)
	js := ensureStreams(t, cpConn, 1)
	cp := newControlPlane(t, js, "control")

	var (
		mu         sync.Mutex
		violations []string
	)
	wsConn, err := nats.Connect(node.url(), nats.UserInfo("ws-a", "wa"), nats.CustomInboxPrefix(broker.InboxPrefix("ws-a")),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			mu.Lock()
			violations = append(violations, err.Error())
			mu.Unlock()
		}))
	require.NoError(t, err)
	t.Cleanup(wsConn.Close)
	var runs atomic.Int64
	w := newWorkspace(t, wsConn, "ws-a", t.TempDir(), t.TempDir(), &runs, nil)

	ids := publishDurable(t, w.hub, "ws-a", 3)
	got, _ := cp.collect(t, len(ids), arrives)
	require.Len(t, got, len(ids), "durable events drained under workspace permissions")

	writer := mint(t, "control", []string{"t:*"}, true)
	r, err := broker.Call(context.Background(), cpConn, broker.CallRequest{Workspace: "ws-a", Tool: "t:count", Token: writer, Key: "perm-1"}, 1, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, 200, r.Status)
	assert.True(t, decode(t, r.Body).Success, string(r.Body))

	require.NoError(t, broker.SendCommand(context.Background(), js, "ws-a", "cmd-1", []byte(`{"command":"pause","channel":"ws-a"}`), nil))
	got, _ = cp.collect(t, 1, arrives)
	require.Len(t, got, 1, "the command was consumed and its event drained")
	assert.Equal(t, events.KindCommand, got[0].event.Kind)

	// Another workspace's subjects are out of reach.
	spy, err := cpConn.SubscribeSync("cmdbridge.ws-b.>")
	require.NoError(t, err)
	require.NoError(t, cpConn.Flush())
	require.NoError(t, wsConn.Publish(broker.EventSubject("ws-b", events.KindCommand), []byte(`{}`)))
	_, err = wsConn.SubscribeSync("cmdbridge.ws-b.tools.*")
	require.NoError(t, err)
	require.NoError(t, wsConn.Flush())
	_, err = spy.NextMsg(300 * time.Millisecond)
	assert.ErrorIs(t, err, nats.ErrTimeout, "the broker dropped the publish")
	eventually(t, arrives, func() bool { mu.Lock(); defer mu.Unlock(); return len(violations) >= 2 }, "no permissions violations reported")
}
