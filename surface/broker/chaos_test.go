package broker_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/events"
)

// TestClusterFailover: a sidecar publishes durable events through a three-node
// cluster and the node it is connected to — the event stream's leader — is killed
// mid-stream. Every durable event reaches the control plane's consumer, in order, none
// lost (duplicates are removed by id), the outbox ends empty, and a keyed write call
// that was running when the node died, retried by its caller across the failover, ran
// once.
func TestClusterFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("three-node cluster")
	}
	nodes := cluster3(t)
	var urls []string
	for _, n := range nodes {
		urls = append(urls, n.url())
	}
	admin := connect(t, urls...)
	js := ensureStreams(t, admin, 3)

	// Put the sidecar on the stream leader's node, so one kill takes away both its
	// connection and the stream's leader.
	info, err := js.Stream(context.Background(), broker.EventStream)
	require.NoError(t, err)
	leader := 0
	for i, n := range nodes {
		if n.srv.Name() == info.CachedInfo().Cluster.Leader {
			leader = i
		}
	}
	ordered := []string{nodes[leader].url()}
	for i, n := range nodes {
		if i != leader {
			ordered = append(ordered, n.url())
		}
	}
	nc, err := nats.Connect(strings.Join(ordered, ","), nats.DontRandomize(), nats.MaxReconnects(-1),
		nats.ReconnectWait(50*time.Millisecond), nats.Timeout(2*time.Second))
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	var survivors []string
	for i, n := range nodes {
		if i != leader {
			survivors = append(survivors, n.url())
		}
	}
	cpConn := connect(t, survivors...)
	cpJS, err := jetstream.New(cpConn)
	require.NoError(t, err)
	cp := newControlPlane(t, cpJS, "control")

	var runs atomic.Int64
	release := make(chan struct{})
	w := newWorkspace(t, nc, "ws-1", t.TempDir(), t.TempDir(), &runs, release)

	// A keyed write call is in flight when the node dies: the sidecar's connection, and
	// with it the reply's way back, go away mid-call. The caller retries with the key.
	writer := mint(t, "ws-1", []string{"t:*"}, true)
	req := broker.CallRequest{Workspace: "ws-1", Tool: "t:count", Token: writer, Key: "failover-1"}
	type result struct {
		r   broker.Reply
		err error
	}
	inFlight := make(chan result, 1)
	go func() {
		r, err := broker.Call(context.Background(), cpConn, req, 60, 500*time.Millisecond)
		inFlight <- result{r, err}
	}()
	eventually(t, arrives, func() bool { return w.srv.Active() == 1 }, "the write call did not start")

	// The publisher runs on while the leader is killed: the outbox holds events that
	// were not yet acknowledged when the node died.
	const total = 300
	published := make(chan []string, 1)
	go func() {
		var ids []string
		for range total {
			e, err := w.hub.Publish(context.Background(), events.Command("ws-1", "step", map[string]any{"n": len(ids)}))
			if !assert.NoError(t, err) {
				break
			}
			ids = append(ids, e.EventID)
		}
		published <- ids
	}()
	eventually(t, arrives, func() bool { return w.sc.Stats().Durable >= 50 }, "nothing drained before the kill")
	pendingAtKill := len(w.hub.Pending())
	nodes[leader].stop()
	time.Sleep(time.Second) // retries of the call arrive while it still runs
	close(release)
	var ids []string
	select {
	case ids = <-published:
	case <-time.After(60 * time.Second):
		t.Fatal("publisher stalled")
	}
	require.Len(t, ids, total)

	var first result
	select {
	case first = <-inFlight:
	case <-time.After(60 * time.Second):
		t.Fatal("the write call never got a reply")
	}
	require.NoError(t, first.err)
	r := first.r
	require.Equal(t, 200, r.Status)
	require.True(t, decode(t, r.Body).Success, string(r.Body))
	again, err := broker.Call(context.Background(), cpConn, req, 40, 500*time.Millisecond)
	require.NoError(t, err)
	assert.Equal(t, r.Body, again.Body)
	assert.True(t, again.Replayed)
	assert.EqualValues(t, 1, runs.Load(), "the write ran once")

	eventually(t, arrives, func() bool { return len(w.hub.Pending()) == 0 }, "outbox not drained after failover: %d pending", len(w.hub.Pending()))
	got, dups := cp.collect(t, total, arrives)
	require.Len(t, got, total, "durable events lost")
	for i, g := range got {
		require.Equal(t, ids[i], g.event.EventID, "order at %d", i)
	}
	t.Logf("%d durable events through the failover (%d pending at the kill), %d duplicates removed by id, %d failed drain attempts",
		total, pendingAtKill, dups, w.sc.Stats().DrainErrors)
}

// The killed-sidecar test runs a sidecar in a child process (this test binary again).
const childEnv = "CMDBRIDGE_BROKER_TEST_CHILD"

// runChild publishes n durable events through a hub whose sidecar is connected to a
// broker without streams (so nothing can drain), says "ready", and waits to be killed.
func runChild(spec string) int {
	dir, rest, _ := strings.Cut(spec, "|")
	url, num, _ := strings.Cut(rest, "|")
	n, _ := strconv.Atoi(num)
	nc, err := nats.Connect(url, nats.MaxReconnects(-1))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var sc *broker.Sidecar
	hub, err := events.NewHub(events.Config{Dir: dir, Source: "ws-1", From: "ws-1",
		Forward: func(e events.Event, d bool) { sc.Forward(e, d) }})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if sc, err = broker.New(broker.Config{Conn: nc, Subject: "ws-1", MaxBackoff: 100 * time.Millisecond}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := sc.Start(hub); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := range n {
		e, err := hub.Publish(context.Background(), events.Command("ws-1", "step", map[string]any{"i": i}))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(e.EventID)
	}
	fmt.Println("ready")
	time.Sleep(time.Minute) // killed long before
	return 1
}

// TestKilledSidecarDrainsOutbox: a sidecar killed with SIGKILL while its durable
// events wait in the outbox (the streams were not provisioned yet) drains them all,
// in order, when it restarts.
func TestKilledSidecarDrainsOutbox(t *testing.T) {
	node := singleNode(t)
	dir := filepath.Join(t.TempDir(), "events")
	const n = 50
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+dir+"|"+node.url()+"|"+strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	var ids []string
	sc := bufio.NewScanner(out)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for sc.Scan() {
			if sc.Text() == "ready" {
				return
			}
			ids = append(ids, sc.Text())
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("child did not get ready")
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	require.Len(t, ids, n)

	nc := connect(t, node.url())
	js := ensureStreams(t, nc, 1)
	cp := newControlPlane(t, js, "control")
	var sidecar *broker.Sidecar
	hub, err := events.NewHub(events.Config{Dir: dir, Source: "ws-1", From: "ws-1",
		Forward: func(e events.Event, d bool) { sidecar.Forward(e, d) }})
	require.NoError(t, err)
	t.Cleanup(func() { _ = hub.Close() })
	require.Len(t, hub.Pending(), n, "the killed sidecar's events are in its outbox")
	sidecar, err = broker.New(broker.Config{Conn: nc, Subject: "ws-1"})
	require.NoError(t, err)
	require.NoError(t, sidecar.Start(hub))
	t.Cleanup(func() { _ = sidecar.Close() })

	got, dups := cp.collect(t, n, arrives)
	require.Len(t, got, n)
	for i, g := range got {
		assert.Equal(t, ids[i], g.event.EventID, "order at %d", i)
	}
	assert.Zero(t, dups)
	eventually(t, arrives, func() bool { return len(hub.Pending()) == 0 }, "outbox not emptied")
}
