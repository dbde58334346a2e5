package broker_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/events"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

var testKey = bytes.Repeat([]byte{7}, token.KeySize)

// natsNode is one embedded nats-server with JetStream, on loopback.
type natsNode struct {
	opts *server.Options
	srv  *server.Server
}

// startNode starts a server from opts (a fresh copy each time, so a node restarts on
// the same ports and store).
func startNode(t testing.TB, opts server.Options) *natsNode {
	t.Helper()
	o := opts
	s, err := server.NewServer(&o)
	require.NoError(t, err)
	go s.Start()
	require.True(t, s.ReadyForConnections(10*time.Second), "nats-server did not start")
	n := &natsNode{opts: &o, srv: s}
	t.Cleanup(n.stop)
	return n
}

func (n *natsNode) stop() {
	n.srv.Shutdown()
	n.srv.WaitForShutdown()
}

func (n *natsNode) url() string { return n.srv.ClientURL() }

// singleNode is one JetStream server on a random loopback port.
func singleNode(t testing.TB) *natsNode {
	return startNode(t, server.Options{
		Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(),
		NoLog: true, NoSigs: true, ServerName: "single",
	})
}

// freePorts reserves n loopback ports (listen, note, close): a JetStream cluster must
// know every peer's route address before its first node starts.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		ls = append(ls, l)
	}
	ports := make([]int, n)
	for i, l := range ls {
		ports[i] = l.Addr().(*net.TCPAddr).Port
		require.NoError(t, l.Close())
	}
	return ports
}

// cluster3 starts a three-node JetStream cluster on loopback.
func cluster3(t testing.TB) []*natsNode {
	t.Helper()
	ports := freePorts(t, 3)
	var routes []*url.URL
	for _, p := range ports {
		routes = append(routes, &url.URL{Scheme: "nats-route", Host: fmt.Sprintf("127.0.0.1:%d", p)})
	}
	nodes := make([]*natsNode, 3)
	var wg sync.WaitGroup
	for i := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			nodes[i] = startNode(t, server.Options{
				Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(),
				ServerName: fmt.Sprintf("n%d", i), NoLog: true, NoSigs: true,
				Cluster: server.ClusterOpts{Name: "cmdbridge-test", Host: "127.0.0.1", Port: ports[i]},
				Routes:  routes,
			})
		}()
	}
	wg.Wait()
	return nodes
}

// connect dials urls with endless reconnects, as a sidecar does.
func connect(t testing.TB, urls ...string) *nats.Conn {
	t.Helper()
	var all string
	for i, u := range urls {
		if i > 0 {
			all += ","
		}
		all += u
	}
	nc, err := nats.Connect(all, nats.MaxReconnects(-1), nats.ReconnectWait(50*time.Millisecond),
		nats.RetryOnFailedConnect(true), nats.Timeout(2*time.Second))
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	return nc
}

// ensureStreams provisions the streams, retrying while a fresh cluster elects its
// leaders (bounded).
func ensureStreams(t testing.TB, nc *nats.Conn, replicas int) jetstream.JetStream {
	t.Helper()
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = broker.EnsureStreams(ctx, js, broker.StreamOptions{Replicas: replicas})
		cancel()
		if err == nil {
			return js
		}
		require.True(t, time.Now().Before(deadline), "streams not created: %v", err)
		time.Sleep(100 * time.Millisecond)
	}
}

type countIn struct {
	Note string `json:"note,omitempty"`
}

type echoIn struct {
	Text string `json:"text,omitempty"`
}

// workspace is one sidecar's world: a kernel over a private registry, the HTTP
// server, an event hub on its state dir, and the broker sidecar.
type workspace struct {
	subject  string
	dir      string // the work tree
	state    string // the state dir (outbox, idempotency log)
	k        *kernel.Kernel
	srv      *surfacehttp.Server
	hub      *events.Hub
	sc       *broker.Sidecar
	runs     *atomic.Int64 // t:count executions, across restarts
	release  chan struct{} // when not nil, t:count waits for it
	receipts atomic.Int64  // finished kernel calls

	mu   sync.Mutex
	errs []error
}

// newWorkspace builds a workspace for subject on nc, with controlCaller(subject) as
// its control-plane caller; runs counts t:count's effects.
func newWorkspace(t testing.TB, nc *nats.Conn, subject, dir, state string, runs *atomic.Int64, release chan struct{}) *workspace {
	t.Helper()
	return newWorkspaceControl(t, nc, subject, dir, state, runs, release, controlCaller(subject), "")
}

// newWorkspaceKey is newWorkspace on fresh directories that takes only commands
// signed for it with commandKey's private half (Config.CommandKey).
func newWorkspaceKey(t testing.TB, nc *nats.Conn, subject string, runs *atomic.Int64, commandKey string) *workspace {
	t.Helper()
	return newWorkspaceControl(t, nc, subject, t.TempDir(), t.TempDir(), runs, nil, controlCaller(subject), commandKey)
}

// reported says whether the sidecar reported an error containing s.
func (w *workspace) reported(s string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, e := range w.errs {
		if strings.Contains(e.Error(), s) {
			return true
		}
	}
	return false
}

func (w *workspace) errors() []error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]error(nil), w.errs...)
}

// controlCaller is the control plane as the tests' workspaces know it: every t: tool,
// reads and writes, commands on the workspace's own channel.
func controlCaller(subject string) *broker.ControlCaller {
	return &broker.ControlCaller{Subject: "control", Tools: []string{"t:*"}, Read: []string{"."}, Write: []string{"."},
		Events: []string{broker.WorkspaceOf(subject)}}
}

// newWorkspaceControl is newWorkspace with control as the control-plane caller (nil:
// none) and commandKey as Config.CommandKey.
func newWorkspaceControl(t testing.TB, nc *nats.Conn, subject, dir, state string, runs *atomic.Int64, release chan struct{}, control *broker.ControlCaller, commandKey string) *workspace {
	t.Helper()
	w := &workspace{subject: subject, dir: dir, state: state, runs: runs, release: release}
	reg := native.NewRegistry()
	require.NoError(t, reg.Add(native.New(tool.Spec{Name: "t:echo", Domain: "t", Description: "Echo the text.",
		Annotations: tool.Annotations{ReadOnlyHint: true}, ParallelSafe: true},
		func(ctx context.Context, env *tool.Env, in echoIn) tool.Output {
			return tool.OK(map[string]any{"text": in.Text})
		})))
	require.NoError(t, reg.Add(native.New(tool.Spec{Name: "t:count", Domain: "t", Description: "Count one write."},
		func(ctx context.Context, env *tool.Env, in countIn) tool.Output {
			if w.release != nil {
				select {
				case <-w.release:
				case <-ctx.Done():
					return tool.Fail(tool.CodeCancelled, "%v", ctx.Err())
				}
			}
			return tool.OK(map[string]any{"run": w.runs.Add(1), "note": in.Note})
		})))
	require.NoError(t, reg.Add(native.New(tool.Spec{Name: "t:hidden", Domain: "t", Description: "Seen by no test token.",
		Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, in echoIn) tool.Output { return tool.OK(nil) })))
	onErr := func(err error) { w.mu.Lock(); w.errs = append(w.errs, err); w.mu.Unlock() }
	var fwd func(events.Event, bool)
	var err error
	hubCfg := events.Config{Dir: filepath.Join(state, "events"), Source: subject, From: subject,
		Forward: func(e events.Event, d bool) { fwd(e, d) }}
	w.hub, err = events.NewHub(hubCfg)
	require.NoError(t, err)
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace: dir,
			Evidence:  kernel.EvidenceConfig{Dir: filepath.Join(state, "evidence"), Sync: evidence.SyncBuffered},
			OnResult: func(req kernel.Request, res kernel.Result) {
				w.receipts.Add(1)
				surfacehttp.PublishToolCalled(w.hub, onErr)(toolCalled(req, res))
			},
		},
		Native: reg,
	})
	require.NoError(t, err)
	w.k = k
	w.srv, err = surfacehttp.New(surfacehttp.Config{Kernel: k, Key: testKey, Events: w.hub, OnEventError: onErr})
	require.NoError(t, err)
	w.sc, err = broker.New(broker.Config{Conn: nc, Subject: subject, Server: w.srv, Control: control, CommandKey: commandKey, StateDir: filepath.Join(state, "broker"),
		OnError: onErr, MaxBackoff: 200 * time.Millisecond, CommandPoll: time.Second, PublishTimeout: 2 * time.Second, AnnounceEvery: 200 * time.Millisecond})
	require.NoError(t, err)
	fwd = w.sc.Forward
	require.NoError(t, w.sc.Start(w.hub))
	t.Cleanup(w.close)
	return w
}

// toolCalled is the serve wiring's hook body for one result.
func toolCalled(req kernel.Request, res kernel.Result) surfacehttp.ToolCalled {
	var got surfacehttp.ToolCalled
	surfacehttp.ToolCalledHook(func(tc surfacehttp.ToolCalled) { got = tc })(req, res)
	return got
}

// close stops the workspace as serve does: calls cancelled, sidecar, hub, kernel.
func (w *workspace) close() {
	w.srv.Close()
	_ = w.sc.Close()
	_ = w.hub.Close()
	_ = w.k.Close()
}

func mint(t testing.TB, subject string, tools []string, write bool) string {
	t.Helper()
	o := token.MintOptions{Subject: subject, Tools: tools, Read: []string{"."}, TTL: time.Hour}
	if write {
		o.Write = []string{"."}
	}
	tok, _, err := token.Mint(testKey, o)
	require.NoError(t, err)
	return tok
}

// controlPlane is a durable pull consumer on the event stream.
type controlPlane struct {
	cons jetstream.Consumer
}

func newControlPlane(t testing.TB, js jetstream.JetStream, name string) *controlPlane {
	t.Helper()
	var cons jetstream.Consumer
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		c, err := js.CreateOrUpdateConsumer(ctx, broker.EventStream, jetstream.ConsumerConfig{
			Durable: name, AckPolicy: jetstream.AckExplicitPolicy, AckWait: 2 * time.Second,
		})
		cancel()
		if err == nil {
			cons = c
			break
		}
		require.True(t, time.Now().Before(deadline), "consumer: %v", err)
		time.Sleep(100 * time.Millisecond)
	}
	return &controlPlane{cons: cons}
}

// received is one delivered event: its message id and envelope.
type received struct {
	msgID string
	event events.Event
}

// arrives bounds how long a test waits for something that must happen (a message on a
// stream, a counter reaching its value): long enough that a loaded machine (the race
// detector, the rest of make test) never trips it, so it guards against a hang and
// checks no speed. A wait that must see nothing uses a short window instead.
const arrives = 2 * time.Minute

// collect fetches until want distinct event ids have arrived (duplicates counted,
// not kept) or the deadline passes; it acks what it keeps.
func (cp *controlPlane) collect(t testing.TB, want int, within time.Duration) (got []received, dups int) {
	t.Helper()
	seen := map[string]bool{}
	deadline := time.Now().Add(within)
	for len(got) < want && time.Now().Before(deadline) {
		batch, err := cp.cons.Fetch(want-len(got), jetstream.FetchMaxWait(500*time.Millisecond))
		if err != nil {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		for m := range batch.Messages() {
			var e events.Event
			require.NoError(t, json.Unmarshal(m.Data(), &e))
			id := m.Headers().Get(nats.MsgIdHdr)
			require.Equal(t, e.EventID, id, "the message id is the event id")
			_ = m.Ack()
			if seen[id] {
				dups++
				continue
			}
			seen[id] = true
			got = append(got, received{msgID: id, event: e})
		}
	}
	return got, dups
}

// publishDurable publishes n conductor:command events on channel through hub and
// returns their ids in order.
func publishDurable(t testing.TB, hub *events.Hub, channel string, n int) []string {
	t.Helper()
	var ids []string
	for i := range n {
		e, err := hub.Publish(context.Background(), events.Command(channel, "step", map[string]any{"i": i}))
		require.NoError(t, err)
		ids = append(ids, e.EventID)
	}
	return ids
}

// eventually polls cond every 20ms for at most d.
func eventually(t testing.TB, d time.Duration, cond func() bool, msg string, args ...any) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf(msg, args...)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
