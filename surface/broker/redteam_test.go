package broker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/events"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
)

// The TestRedTeam tests run every cross-workspace move a workspace could try with the
// NATS credentials its control plane issued it, against a real nats-server in operator
// mode (JWT auth, the issuer's account, JetStream on, loopback, a temporary store),
// and check the broker refuses each; TestRedTeamIssuedFlow checks the legitimate flow
// works with the same credentials.

// refused is how long a request the broker drops is waited for: the broker never
// answers it, so this bounds the wait, it does not time anything.
const refused = time.Second

// tenants is one issued broker with a conductor and two workspaces, ws-a and ws-b, each
// on its own issued credentials; ws-b's connection is the attacker's.
type tenants struct {
	is     *broker.Issuer
	cp     *nats.Conn
	cpJS   jetstream.JetStream
	a, b   *workspace
	bConn  *nats.Conn
	bJS    jetstream.JetStream
	bErrs  *violations
	aRuns  atomic.Int64
	bRuns  atomic.Int64
	secret string // in the command waiting for ws-a
}

// violations collects the asynchronous errors the broker sends a connection.
type violations struct {
	mu   sync.Mutex
	errs []string
}

func (v *violations) handler(_ *nats.Conn, _ *nats.Subscription, err error) {
	v.mu.Lock()
	v.errs = append(v.errs, err.Error())
	v.mu.Unlock()
}

// await waits until the broker has reported a permissions violation on subject for
// op ("publish" or "subscription").
func (v *violations) await(t *testing.T, op, subject string) {
	t.Helper()
	want := strings.ToLower(fmt.Sprintf("permissions violation for %s to %q", op, subject))
	eventually(t, arrives, func() bool {
		v.mu.Lock()
		defer v.mu.Unlock()
		for _, e := range v.errs {
			if strings.Contains(strings.ToLower(e), want) {
				return true
			}
		}
		return false
	}, "the broker reported no violation for %s to %q; it reported %v", op, subject, v.snapshot())
}

func (v *violations) snapshot() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]string(nil), v.errs...)
}

// startIssued starts a nats-server from the issuer's own ServerConfig (what
// 'cmdbridge conductor nats-config' prints) with JetStream on a temporary store.
func startIssued(t *testing.T) (*natsNode, *broker.Issuer) {
	t.Helper()
	dir := t.TempDir()
	is, created, err := broker.OpenIssuer(filepath.Join(dir, "conductor"))
	require.NoError(t, err)
	require.True(t, created)
	conf := filepath.Join(dir, "nats.conf")
	require.NoError(t, os.WriteFile(conf, []byte(is.ServerConfig()+
		fmt.Sprintf("jetstream { store_dir: %q }\n", filepath.Join(dir, "js"))), 0o600))
	opts, err := server.ProcessConfigFile(conf)
	require.NoError(t, err)
	opts.Host, opts.Port, opts.NoLog, opts.NoSigs, opts.ServerName = "127.0.0.1", -1, true, true, "issued"
	return startNode(t, *opts), is
}

// dialCreds connects with a credentials file's bytes, and with the workspace's inbox
// prefix when ws is set.
func dialCreds(t *testing.T, url string, creds []byte, ws string, v *violations) *nats.Conn {
	t.Helper()
	path := filepath.Join(t.TempDir(), "user.creds")
	require.NoError(t, os.WriteFile(path, creds, 0o600))
	opts := []nats.Option{nats.UserCredentials(path), nats.Timeout(5 * time.Second)}
	if ws != "" {
		opts = append(opts, nats.CustomInboxPrefix(broker.InboxPrefix(ws)))
	}
	if v != nil {
		opts = append(opts, nats.ErrorHandler(v.handler))
	}
	nc, err := nats.Connect(url, opts...)
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	return nc
}

// newTenants starts the broker, provisions the streams as the conductor, starts both
// workspaces' sidecars on their issued credentials, and leaves a command carrying a
// secret waiting for ws-a, consumed by ws-a.
func newTenants(t *testing.T) *tenants {
	t.Helper()
	node, is := startIssued(t)
	tn := &tenants{is: is, bErrs: &violations{}, secret: "secret-for-ws-a-only"}
	cpCreds, aCreds, bCreds := issueThree(t, is)

	tn.cp = dialCreds(t, node.url(), cpCreds, "", nil)
	tn.cpJS = ensureStreams(t, tn.cp, 1)
	aConn := dialCreds(t, node.url(), aCreds, "ws-a", nil)
	tn.bConn = dialCreds(t, node.url(), bCreds, "ws-b", tn.bErrs)
	var err error
	tn.bJS, err = jetstream.New(tn.bConn)
	require.NoError(t, err)
	tn.a = newWorkspaceKey(t, aConn, "ws-a", &tn.aRuns, is.CommandKey())
	tn.b = newWorkspaceKey(t, tn.bConn, "ws-b", &tn.bRuns, is.CommandKey())

	// The conductor makes both command consumers, as it does with a first command.
	for _, ws := range []string{"ws-a", "ws-b"} {
		require.NoError(t, broker.EnsureCommandConsumer(context.Background(), tn.cpJS, ws))
	}
	require.NoError(t, broker.SendCommand(context.Background(), tn.cpJS, "ws-a", "cmd-a-1",
		[]byte(`{"command":"deploy","channel":"ws-a","args":{"secret":"`+tn.secret+`"}}`), is.SignCommand))
	eventually(t, arrives, func() bool { return tn.a.sc.Stats().Commands == 1 }, "ws-a never took its command")
	return tn
}

// consumerOf is the command consumer of ws as the conductor sees it.
func (tn *tenants) consumerOf(t *testing.T, ws string) *jetstream.ConsumerInfo {
	t.Helper()
	c, err := tn.cpJS.Consumer(context.Background(), broker.CommandStream, broker.CommandConsumer(ws))
	require.NoError(t, err)
	info, err := c.Info(context.Background())
	require.NoError(t, err)
	return info
}

// TestRedTeamConsumerFilterIsPinned: ws-b cannot re-create its own command consumer
// with a filter reaching ws-a's commands — neither through nats.go nor by hand with the
// filter in the body, on the create subject that names its own filter — and its
// consumer never holds ws-a's command. (A workspace creates no consumer at all: the
// control plane does.)
func TestRedTeamConsumerFilterIsPinned(t *testing.T) {
	tn := newTenants(t)
	ctx := context.Background()
	own := broker.CommandConsumer("ws-b")
	for _, filter := range []string{"cmdbridge.*.commands", broker.CommandSubject("ws-a"), "cmdbridge.>"} {
		t.Run(filter, func(t *testing.T) {
			cctx, cancel := context.WithTimeout(ctx, refused)
			defer cancel()
			_, err := tn.bJS.CreateOrUpdateConsumer(cctx, broker.CommandStream, jetstream.ConsumerConfig{
				Durable: own, FilterSubject: filter, AckPolicy: jetstream.AckExplicitPolicy,
			})
			require.Error(t, err, "ws-b re-created its consumer filtered on %s", filter)
			tn.bErrs.await(t, "publish", "$JS.API.CONSUMER.CREATE."+broker.CommandStream+"."+own+"."+filter)
		})
	}
	// The create subject naming ws-b's own filter, with another filter in the body.
	create := "$JS.API.CONSUMER.CREATE." + broker.CommandStream + "." + own + "." + broker.CommandSubject("ws-b")
	for name, cfg := range map[string]map[string]any{
		"filter_subject":  {"durable_name": own, "filter_subject": "cmdbridge.*.commands", "ack_policy": "explicit"},
		"filter_subjects": {"durable_name": own, "filter_subjects": []string{"cmdbridge.*.commands"}, "ack_policy": "explicit"},
		"both": {"durable_name": own, "filter_subject": broker.CommandSubject("ws-b"),
			"filter_subjects": []string{broker.CommandSubject("ws-a")}, "ack_policy": "explicit"},
	} {
		t.Run("body "+name, func(t *testing.T) {
			body, err := json.Marshal(map[string]any{"stream_name": broker.CommandStream, "config": cfg})
			require.NoError(t, err)
			r, err := tn.bConn.Request(create, body, refused)
			if err == nil {
				var resp struct {
					Error *struct{} `json:"error"`
				}
				require.NoError(t, json.Unmarshal(r.Data, &resp))
				require.NotNil(t, resp.Error, "nats-server accepted ws-b's consumer with %s: %s", name, r.Data)
				return
			}
			tn.bErrs.await(t, "publish", create)
		})
	}
	info := tn.consumerOf(t, "ws-b")
	assert.Equal(t, broker.CommandSubject("ws-b"), info.Config.FilterSubject)
	assert.Empty(t, info.Config.FilterSubjects)
	assert.Zero(t, info.NumPending+uint64(info.NumAckPending)+info.Delivered.Stream, "ws-b's consumer saw ws-a's command")
}

// TestRedTeamNoOtherConsumerOnCommands: ws-b cannot create any other consumer on the
// command stream — a durable filtered on ws-a, an ephemeral, the legacy durable API —
// nor use ws-a's.
func TestRedTeamNoOtherConsumerOnCommands(t *testing.T) {
	tn := newTenants(t)
	ctx := context.Background()
	attempts := map[string]jetstream.ConsumerConfig{
		"durable on ws-a": {Durable: "spy", FilterSubject: broker.CommandSubject("ws-a")},
		"durable, all":    {Durable: "spy-all", FilterSubject: "cmdbridge.*.commands"},
		"ws-a's consumer": {Durable: broker.CommandConsumer("ws-a"), FilterSubject: broker.CommandSubject("ws-a")},
		"ephemeral":       {Name: "eph", FilterSubject: broker.CommandSubject("ws-a")},
		"unfiltered":      {Name: "eph-all"},
	}
	for name, cfg := range attempts {
		t.Run(name, func(t *testing.T) {
			cfg.AckPolicy = jetstream.AckExplicitPolicy
			cctx, cancel := context.WithTimeout(ctx, refused)
			defer cancel()
			_, err := tn.bJS.CreateConsumer(cctx, broker.CommandStream, cfg)
			require.Error(t, err)
		})
	}
	t.Run("legacy durable create", func(t *testing.T) {
		subj := "$JS.API.CONSUMER.DURABLE.CREATE." + broker.CommandStream + ".spy-legacy"
		body := []byte(`{"stream_name":"` + broker.CommandStream + `","config":{"durable_name":"spy-legacy","ack_policy":"explicit"}}`)
		_, err := tn.bConn.Request(subj, body, refused)
		require.Error(t, err)
		tn.bErrs.await(t, "publish", subj)
	})
	s, err := tn.cpJS.Stream(ctx, broker.CommandStream)
	require.NoError(t, err)
	var got []string
	for n := range s.ConsumerNames(ctx).Name() {
		got = append(got, n)
	}
	assert.ElementsMatch(t, []string{broker.CommandConsumer("ws-a"), broker.CommandConsumer("ws-b")}, got)
	assert.EqualValues(t, 1, tn.a.sc.Stats().Commands, "ws-a's command stayed ws-a's")
}

// TestRedTeamNoWildcardSubscribe: ws-b subscribes to nothing outside its own tool
// subjects, the discovery subject and its own inboxes.
func TestRedTeamNoWildcardSubscribe(t *testing.T) {
	tn := newTenants(t)
	for _, subj := range []string{"cmdbridge.>", "cmdbridge.*.commands", "cmdbridge.ws-a.>", "cmdbridge.*.tools.*",
		"cmdbridge.*.events.>", "_INBOX.>", broker.InboxPrefix("ws-a") + ".>", "$JS.>", ">"} {
		t.Run(subj, func(t *testing.T) {
			sub, err := tn.bConn.SubscribeSync(subj)
			require.NoError(t, err, "subscribing is asynchronous: the broker answers with an error")
			tn.bErrs.await(t, "subscription", subj)
			// Something published there afterwards never arrives: the conductor publishes
			// on ws-a's space, then on ws-b's own tool subject, which ws-b may read; one
			// publisher's messages reach one connection in order.
			mark, err := tn.bConn.SubscribeSync("cmdbridge.ws-b.tools.mark")
			require.NoError(t, err)
			require.NoError(t, tn.bConn.Flush())
			require.NoError(t, tn.cp.Publish("cmdbridge.ws-a.tools.secret", []byte(tn.secret)))
			require.NoError(t, tn.cp.Publish("cmdbridge.ws-b.tools.mark", nil))
			_, err = mark.NextMsg(10 * time.Second)
			require.NoError(t, err)
			n, _, err := sub.Pending()
			require.NoError(t, err)
			assert.Zero(t, n, "ws-b received a message on %s", subj)
			require.NoError(t, mark.Unsubscribe())
			require.NoError(t, sub.Unsubscribe())
		})
	}
}

// TestRedTeamNoPublishAsAnotherWorkspace: ws-b cannot publish on ws-a's event or
// announce subjects, plainly or into the event stream.
func TestRedTeamNoPublishAsAnotherWorkspace(t *testing.T) {
	tn := newTenants(t)
	ctx := context.Background()
	spy, err := tn.cp.SubscribeSync("cmdbridge.ws-a.>")
	require.NoError(t, err)
	require.NoError(t, tn.cp.Flush())
	subj := broker.EventSubject("ws-a", events.KindCommand)
	body := []byte(`{"event_id":"forged","kind":"conductor:command","from":"ws-a","channel":"ws-a"}`)
	for _, s := range []string{subj, broker.AnnounceSubject("ws-a")} {
		require.NoError(t, tn.bConn.Publish(s, body))
		tn.bErrs.await(t, "publish", s)
	}
	cctx, cancel := context.WithTimeout(ctx, refused)
	defer cancel()
	_, err = tn.bJS.Publish(cctx, subj, body, jetstream.WithMsgID("forged"))
	require.Error(t, err)

	// The broker dropped them: up to the conductor's own mark, nothing on ws-a's space
	// is ws-b's forgery (ws-a's sidecar announces itself there meanwhile).
	require.NoError(t, tn.cp.Publish("cmdbridge.ws-a.mark", nil))
	for {
		m, err := spy.NextMsg(10 * time.Second)
		require.NoError(t, err)
		if m.Subject == "cmdbridge.ws-a.mark" {
			break
		}
		assert.NotEqual(t, string(body), string(m.Data), "ws-b's forgery reached the conductor on %s", m.Subject)
	}
	s, err := tn.cpJS.Stream(ctx, broker.EventStream)
	require.NoError(t, err)
	_, err = s.GetLastMsgForSubject(ctx, subj)
	if err == nil {
		// ws-a's own sidecar published its command's event there; none may be forged.
		msg, gerr := s.GetLastMsgForSubject(ctx, subj)
		require.NoError(t, gerr)
		assert.NotEqual(t, "forged", msg.Header.Get(nats.MsgIdHdr))
	} else {
		assert.ErrorIs(t, err, jetstream.ErrMsgNotFound)
	}
}

// TestRedTeamNoCommandsOrCallsFromWorkspaces: only the conductor sends commands and
// calls. ws-b cannot publish a command to ws-a nor to itself (a command runs as the
// control plane), nor call a tool on ws-a or on itself.
func TestRedTeamNoCommandsOrCallsFromWorkspaces(t *testing.T) {
	tn := newTenants(t)
	ctx := context.Background()
	for _, ws := range []string{"ws-a", "ws-b"} {
		t.Run("command to "+ws, func(t *testing.T) {
			cctx, cancel := context.WithTimeout(ctx, refused)
			defer cancel()
			_, err := tn.bJS.Publish(cctx, broker.CommandSubject(ws), []byte(`{"command":"deploy","channel":"`+ws+`"}`),
				jetstream.WithMsgID("forged-"+ws))
			require.Error(t, err)
			tn.bErrs.await(t, "publish", broker.CommandSubject(ws))
			s, err := tn.cpJS.Stream(ctx, broker.CommandStream)
			require.NoError(t, err)
			last, err := s.GetLastMsgForSubject(ctx, broker.CommandSubject(ws))
			if err == nil {
				assert.NotEqual(t, "forged-"+ws, last.Header.Get(nats.MsgIdHdr), "ws-b's command is in the stream")
			} else {
				assert.ErrorIs(t, err, jetstream.ErrMsgNotFound)
			}
		})
		t.Run("call on "+ws, func(t *testing.T) {
			_, err := broker.Call(ctx, tn.bConn, broker.CallRequest{Workspace: ws, Tool: "t:count", Key: "forged-call-" + ws}, 1, refused)
			require.Error(t, err)
			tn.bErrs.await(t, "publish", broker.ToolSubject(ws, "t:count"))
		})
	}
	assert.Zero(t, tn.aRuns.Load()+tn.bRuns.Load(), "a forged call ran")
}

// TestRedTeamNoStreamReads: ws-b cannot read the command stream through the JetStream
// API — stream info, message get, direct get, listings — nor pull or inspect ws-a's
// consumer.
func TestRedTeamNoStreamReads(t *testing.T) {
	tn := newTenants(t)
	cs, as := broker.CommandStream, broker.CommandConsumer("ws-a")
	lastA := []byte(`{"last_by_subj":"` + broker.CommandSubject("ws-a") + `"}`)
	for _, r := range []struct {
		subject string
		body    []byte
	}{
		{"$JS.API.STREAM.INFO." + cs, nil},
		{"$JS.API.STREAM.MSG.GET." + cs, lastA},
		{"$JS.API.STREAM.MSG.GET." + cs, []byte(`{"seq":1}`)},
		{"$JS.API.DIRECT.GET." + cs, lastA},
		{"$JS.API.DIRECT.GET." + cs + "." + broker.CommandSubject("ws-a"), nil},
		{"$JS.API.STREAM.LIST", nil},
		{"$JS.API.STREAM.NAMES", nil},
		{"$JS.API.CONSUMER.LIST." + cs, nil},
		{"$JS.API.CONSUMER.INFO." + cs + "." + as, nil},
		{"$JS.API.CONSUMER.MSG.NEXT." + cs + "." + as, []byte(`{"batch":1,"expires":500000000}`)},
		{"$JS.API.STREAM.INFO." + broker.EventStream, nil},
		{"$JS.API.DIRECT.GET." + broker.EventStream, []byte(`{"last_by_subj":"cmdbridge.ws-a.events.conductor:command"}`)},
	} {
		t.Run(r.subject, func(t *testing.T) {
			m, err := tn.bConn.Request(r.subject, r.body, refused)
			if err == nil {
				assert.NotContains(t, string(m.Data), tn.secret)
				t.Fatalf("the JetStream API answered ws-b on %s: %.300s", r.subject, m.Data)
			}
			tn.bErrs.await(t, "publish", r.subject)
		})
	}
	assert.EqualValues(t, 1, tn.a.sc.Stats().Commands, "ws-a's command was not taken from it")
}

// TestRedTeamEventFromIsTheSubject: a workspace publishing, on its own subject, an
// event whose body says it is another's is shown as its own (flagged spoofed), and
// reusing another workspace's event_id hides nothing of the other's.
func TestRedTeamEventFromIsTheSubject(t *testing.T) {
	tn := newTenants(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan broker.Tailed, 8)
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- broker.Tail(ctx, tn.cp, "", func() { close(ready) }, func(e broker.Tailed) {
			if e.Event.EventID == "ev-shared" { // the sidecars' own events are not this test's
				got <- e
			}
		})
	}()
	<-ready
	next := func() broker.Tailed {
		t.Helper()
		select {
		case e := <-got:
			return e
		case <-time.After(60 * time.Second):
			t.Fatal("the tail handed over no event")
			return broker.Tailed{}
		}
	}
	forged := `{"event_id":"ev-shared","kind":"agent-runtime:tool_called","from":"ws-a","channel":"ws-a","payload":{}}`
	require.NoError(t, tn.bConn.Publish(broker.EventSubject("ws-b", "agent-runtime:tool_called"), []byte(forged)))
	require.NoError(t, tn.bConn.Flush())
	first := next()
	assert.Equal(t, "ws-b", first.Workspace)
	assert.Equal(t, "ws-b", first.Event.From, "the body's from is not believed")
	assert.True(t, first.Spoofed)

	// ws-a's own event with the same id still comes through.
	real := `{"event_id":"ev-shared","kind":"agent-runtime:tool_called","from":"ws-a:phone:p1","channel":"ws-a","payload":{}}`
	require.NoError(t, tn.cp.Publish(broker.EventSubject("ws-a", "agent-runtime:tool_called"), []byte(real)))
	second := next()
	assert.Equal(t, "ws-a", second.Workspace)
	assert.Equal(t, "ws-a:phone:p1", second.Event.From, "a device of the subject's workspace keeps its from")
	assert.False(t, second.Spoofed)
	cancel()
	require.NoError(t, <-done)
}

// TestRedTeamIssuedFlow: with the same issued credentials the legitimate flow works —
// the conductor sends ws-b a command, ws-b's sidecar takes it and its conductor:command
// event reaches the event stream from ws-b; a token-less write call runs as ws-b's
// control-plane caller, and retried with its key it does not run again.
func TestRedTeamIssuedFlow(t *testing.T) {
	tn := newTenants(t)
	ctx := context.Background()
	cp := newControlPlane(t, tn.cpJS, "conductor")
	require.NoError(t, broker.SendCommand(ctx, tn.cpJS, "ws-b", "cmd-b-1", []byte(`{"command":"pause","channel":"ws-b"}`), tn.is.SignCommand))
	var fromB *events.Event
	for fromB == nil {
		got, _ := cp.collect(t, 1, arrives)
		require.NotEmpty(t, got, "ws-b's command event never reached the event stream")
		for _, r := range got {
			if r.event.Payload["command"] == "pause" {
				fromB = &r.event
			}
		}
	}
	assert.Equal(t, "ws-b", fromB.From)
	assert.Equal(t, "ws-b", fromB.Channel)

	req := broker.CallRequest{Workspace: "ws-b", Tool: "t:count", Body: []byte(`{"note":"issued"}`), Key: "issued-1"}
	first, err := broker.Call(ctx, tn.cp, req, 1, 20*time.Second)
	require.NoError(t, err)
	require.Equal(t, 200, first.Status, string(first.Body))
	require.True(t, decode(t, first.Body).Success, string(first.Body))
	again, err := broker.Call(ctx, tn.cp, req, 1, 20*time.Second)
	require.NoError(t, err)
	assert.True(t, again.Replayed)
	assert.Equal(t, first.Body, again.Body)
	assert.EqualValues(t, 1, tn.bRuns.Load(), "the retried write ran once")
	assert.Zero(t, tn.aRuns.Load())
}

// TestRedTeamCommandsCarryNoToken: a command in the stream (kept for days, readable by
// whoever may read the stream) holds no bearer token, and a token someone puts in a
// command's headers is ignored: the command runs as the workspace's control-plane
// caller, whose channels are the workspace's own.
func TestRedTeamCommandsCarryNoToken(t *testing.T) {
	tn := newTenants(t)
	ctx := context.Background()
	s, err := tn.cpJS.Stream(ctx, broker.CommandStream)
	require.NoError(t, err)
	stored, err := s.GetLastMsgForSubject(ctx, broker.CommandSubject("ws-a"))
	require.NoError(t, err)
	assert.Empty(t, stored.Header.Get(broker.AuthHeader))
	assert.NotContains(t, string(stored.Data), "Bearer")

	// An operator token (every channel) in the header of a command for channel ws-z.
	op, _, err := token.Mint(testKey, token.MintOptions{Subject: "control", Tools: []string{"*"}, Events: []string{"*", "*:**"}, TTL: time.Hour})
	require.NoError(t, err)
	m := nats.NewMsg(broker.CommandSubject("ws-b"))
	m.Header.Set(broker.AuthHeader, "Bearer "+op)
	m.Data = []byte(`{"command":"deploy","channel":"ws-z"}`)
	sig, err := tn.is.SignCommand("ws-b", "with-token", m.Data)
	require.NoError(t, err)
	m.Header.Set(broker.SignatureHeader, sig)
	_, err = tn.cpJS.PublishMsg(ctx, m, jetstream.WithMsgID("with-token"))
	require.NoError(t, err)
	eventually(t, arrives, func() bool {
		tn.b.mu.Lock()
		defer tn.b.mu.Unlock()
		return len(tn.b.errs) > 0
	}, "ws-b never refused the command")
	tn.b.mu.Lock()
	assert.ErrorContains(t, tn.b.errs[0], `channel \"ws-z\"`)
	tn.b.mu.Unlock()
	assert.Zero(t, tn.b.sc.Stats().Commands)
}

// TestRedTeamNoPushConsumerIntoAnotherWorkspace: a workspace cannot make its command
// consumer a push consumer delivering into another workspace's subjects — the server
// would publish there on its behalf, past its publish permissions: its commands would
// arrive as ws-a's events, or as calls on ws-a's tools. The control plane creates
// every command consumer (pull, pinned filter); a workspace only uses its own.
func TestRedTeamNoPushConsumerIntoAnotherWorkspace(t *testing.T) {
	node, is := startIssued(t)
	exp := time.Now().Add(time.Hour)
	cpCreds, err := is.ConductorCreds(exp)
	require.NoError(t, err)
	bCreds, err := is.WorkspaceCreds("ws-b", exp)
	require.NoError(t, err)
	cp := dialCreds(t, node.url(), cpCreds, "", nil)
	cpJS := ensureStreams(t, cp, 1)
	bErrs := &violations{}
	b := dialCreds(t, node.url(), bCreds, "ws-b", bErrs)
	spy, err := cp.SubscribeSync("cmdbridge.ws-a.>")
	require.NoError(t, err)
	require.NoError(t, cp.Flush())

	// ws-b, before any sidecar of its own, creates its consumer as a push consumer.
	own := broker.CommandConsumer("ws-b")
	create := "$JS.API.CONSUMER.CREATE." + broker.CommandStream + "." + own + "." + broker.CommandSubject("ws-b")
	for _, deliver := range []string{broker.EventSubject("ws-a", "agent-runtime:tool_called"), broker.ToolSubject("ws-a", "t:count")} {
		body, err := json.Marshal(map[string]any{"stream_name": broker.CommandStream, "config": map[string]any{
			"durable_name": own, "filter_subject": broker.CommandSubject("ws-b"), "deliver_subject": deliver, "ack_policy": "none"}})
		require.NoError(t, err)
		r, err := b.Request(create, body, refused)
		if err == nil {
			var resp struct {
				Error *struct{} `json:"error"`
			}
			require.NoError(t, json.Unmarshal(r.Data, &resp))
			require.NotNil(t, resp.Error, "ws-b created a push consumer delivering to %s: %s", deliver, r.Data)
		}
	}
	// The control plane sends ws-b a command; it must never come out on ws-a's subjects.
	ctx := context.Background()
	require.NoError(t, broker.SendCommand(ctx, cpJS, "ws-b", "cmd-b-push", []byte(`{"command":"pushed","channel":"ws-b"}`), nil))
	require.NoError(t, cp.Publish("cmdbridge.ws-a.mark", nil))
	for {
		m, err := spy.NextMsg(10 * time.Second)
		require.NoError(t, err)
		if m.Subject == "cmdbridge.ws-a.mark" {
			break
		}
		assert.NotContains(t, string(m.Data), "pushed", "ws-b's command came out on %s", m.Subject)
	}
	c, err := cpJS.Consumer(ctx, broker.CommandStream, own)
	require.NoError(t, err)
	info, err := c.Info(ctx)
	require.NoError(t, err)
	assert.Empty(t, info.Config.DeliverSubject, "ws-b's command consumer is a pull consumer")
	assert.Equal(t, broker.CommandSubject("ws-b"), info.Config.FilterSubject)
}

// TestRedTeamRepliesAsADeputy: NATS does not check a publish's reply subject against
// the publisher's permissions, and JetStream sends a pull consumer's messages to the
// pull request's reply subject. So ws-b can have the server deliver its own commands
// onto ws-a's subjects: a tool subject (a call with no token, which would run as
// ws-a's control-plane caller) or ws-a's command subject. ws-a's sidecar must run
// neither: it refuses calls whose reply is a JetStream subject, and commands whose
// signature is not the control plane's for ws-a.
func TestRedTeamRepliesAsADeputy(t *testing.T) {
	node, is := startIssued(t)
	cpCreds, aCreds, bCreds := issueThree(t, is)
	cp := dialCreds(t, node.url(), cpCreds, "", nil)
	cpJS := ensureStreams(t, cp, 1)
	var aRuns atomic.Int64
	a := newWorkspaceKey(t, dialCreds(t, node.url(), aCreds, "ws-a", nil), "ws-a", &aRuns, is.CommandKey())
	b := dialCreds(t, node.url(), bCreds, "ws-b", nil) // ws-b runs no sidecar: it pulls its own commands by hand
	ctx := context.Background()
	require.NoError(t, broker.EnsureCommandConsumer(ctx, cpJS, "ws-a"))
	sign := is.SignCommand
	// Two commands for ws-b, the second with no channel (it would default to the
	// caller's own, which any control-plane caller may address).
	require.NoError(t, broker.SendCommand(ctx, cpJS, "ws-b", "cmd-b-1", []byte(`{"command":"for-b","channel":"ws-b"}`), sign))
	require.NoError(t, broker.SendCommand(ctx, cpJS, "ws-b", "cmd-b-2", []byte(`{"command":"for-b-no-channel"}`), sign))
	next := "$JS.API.CONSUMER.MSG.NEXT." + broker.CommandStream + "." + broker.CommandConsumer("ws-b")

	t.Run("tool call", func(t *testing.T) {
		spy, err := cp.SubscribeSync(broker.ToolSubject("ws-a", "t:count"))
		require.NoError(t, err)
		require.NoError(t, cp.Flush())
		require.NoError(t, b.PublishRequest(next, broker.ToolSubject("ws-a", "t:count"), []byte(`{"batch":1}`)))
		m, err := spy.NextMsg(10 * time.Second)
		require.NoError(t, err, "the server did not deliver ws-b's command to ws-a's tool subject")
		require.True(t, strings.HasPrefix(m.Reply, "$JS.ACK."), m.Reply)
		eventually(t, arrives, func() bool { return a.reported("JetStream") }, "ws-a did not refuse the delivered call: %v", a.errors())
		assert.Zero(t, a.sc.Stats().Calls, "ws-a answered a call the server delivered for ws-b")
		assert.Zero(t, aRuns.Load())
	})
	t.Run("command", func(t *testing.T) {
		spy, err := cp.SubscribeSync(broker.CommandSubject("ws-a"))
		require.NoError(t, err)
		require.NoError(t, cp.Flush())
		require.NoError(t, b.PublishRequest(next, broker.CommandSubject("ws-a"), []byte(`{"batch":1}`)))
		m, err := spy.NextMsg(10 * time.Second)
		require.NoError(t, err, "the server did not deliver ws-b's command on ws-a's command subject")
		// nats-server 2.15 does not store a JetStream delivery in a stream (its reply is
		// $JS.ACK…), so this copy never reaches ws-a's consumer.
		s, err := cpJS.Stream(ctx, broker.CommandStream)
		require.NoError(t, err)
		_, err = s.GetLastMsgForSubject(ctx, broker.CommandSubject("ws-a"))
		assert.ErrorIs(t, err, jetstream.ErrMsgNotFound, "the stream kept ws-b's command as ws-a's")
		// Were it stored (another server version, another path), ws-a would refuse it:
		// its signature is for ws-b. So is an unsigned command, with no channel.
		moved := nats.NewMsg(broker.CommandSubject("ws-a"))
		moved.Header, moved.Data = m.Header, m.Data
		// Another message id, or the stream's duplicate window would drop the copy; signed
		// for ws-b with that id, so only the workspace in the signature is wrong.
		moved.Header.Set(nats.MsgIdHdr, "moved")
		sig, err := is.SignCommand("ws-b", "moved", m.Data)
		require.NoError(t, err)
		moved.Header.Set(broker.SignatureHeader, sig)
		_, err = cpJS.PublishMsg(ctx, moved)
		require.NoError(t, err)
		_, err = cpJS.Publish(ctx, broker.CommandSubject("ws-a"), []byte(`{"command":"unsigned"}`), jetstream.WithMsgID("unsigned"))
		require.NoError(t, err)
		signed := func() (n int) {
			for _, e := range a.errors() {
				if strings.Contains(e.Error(), "refused: command not signed") || strings.Contains(e.Error(), "refused: the command is not signed") {
					n++
				}
			}
			return n
		}
		eventually(t, arrives, func() bool { return signed() == 2 }, "ws-a did not refuse both: %v", a.errors())
		assert.Zero(t, a.sc.Stats().Commands, "ws-a ran a command not signed for it")
	})
}

// issueThree issues an hour's credentials for the conductor, ws-a and ws-b.
func issueThree(t *testing.T, is *broker.Issuer) (cp, a, b []byte) {
	t.Helper()
	exp := time.Now().Add(time.Hour)
	cp, err := is.ConductorCreds(exp)
	require.NoError(t, err)
	a, err = is.WorkspaceCreds("ws-a", exp)
	require.NoError(t, err)
	b, err = is.WorkspaceCreds("ws-b", exp)
	require.NoError(t, err)
	return cp, a, b
}
