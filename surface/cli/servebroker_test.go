package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/surface/cli/clitest"
	"github.com/cmdbridge/cmdbridge/surface/events"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
)

// TestServeJoinsNATS: serve refuses a broker until the workspace is enrolled (the URL
// read from the config file), then with --nats announces itself with its enrollment,
// answers a tool call over request/reply, and drains a durable event (POST /commands)
// to JetStream with the enrolled subject as from.
func TestServeJoinsNATS(t *testing.T) {
	ns := clitest.StartNATS(t, &server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir()})

	ws := t.TempDir()
	host := serveHost(t, make(chan struct{}, 1))
	run := func(args ...string) (string, string, int) {
		var out, errb strings.Builder
		code := cli.Main(append([]string{"cmdbridge", "--workspace", ws}, args...), &out, &errb, host)
		return out.String(), errb.String(), code
	}
	require.NoError(t, os.MkdirAll(filepath.Join(ws, ".cmdbridge"), 0o755))
	// A password in the URL (the server here checks none) must never reach the log.
	withPassword := strings.Replace(ns.ClientURL(), "nats://", "nats://cmdbridge:s3cret-pw@", 1)
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".cmdbridge", "config.yaml"), []byte("nats:\n  url: "+withPassword+"\n"), 0o644))
	_, errs, code := run("serve")
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "not enrolled")

	// The control plane's own key signs the enrollment token; the workspace never has it.
	cpKey := bytes.Repeat([]byte{9}, token.KeySize)
	enrollTok, _, err := token.Mint(cpKey, token.MintOptions{Subject: "ws-7", Tools: []string{}, TTL: time.Hour})
	require.NoError(t, err)
	_, errs, code = run("enroll", "not-a-token")
	assert.Equal(t, 2, code, errs)
	out, errs, code := run("enroll", enrollTok, "--name", "build box")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, `"subject": "ws-7"`)
	out, _, code = run("enroll")
	require.Equal(t, 0, code)
	assert.Contains(t, out, `"name": "build box"`)
	assert.NotContains(t, out, enrollTok, "the token is not printed back")

	out, errs, code = run("token", "mint", "--subject", "control", "--tools", "s:*", "--read", ".", "--events", "*", "--ttl", "1h")
	require.Equal(t, 0, code, errs)
	tok := strings.TrimSpace(out)

	cp, err := nats.Connect(ns.ClientURL())
	require.NoError(t, err)
	t.Cleanup(cp.Close)
	js, err := jetstream.New(cp)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, broker.EnsureStreams(ctx, js, broker.StreamOptions{}))
	ann, err := cp.SubscribeSync(broker.AnnounceSubject("ws-7"))
	require.NoError(t, err)
	require.NoError(t, cp.Flush())

	url, exited := clitest.StartServe(t, ws, host, "--nats", withPassword)
	m, err := ann.NextMsg(15 * time.Second)
	require.NoError(t, err, "no announcement")
	var a broker.Announcement
	require.NoError(t, json.Unmarshal(m.Data, &a))
	assert.Equal(t, "ws-7", a.Workspace)
	assert.Equal(t, "build box", a.Name)
	assert.Contains(t, a.Tools, "s:echo")
	assert.NoError(t, broker.VerifyAnnouncement(cpKey, a, time.Now()), "the control plane verifies the enrollment")
	assert.Error(t, broker.VerifyAnnouncement(bytes.Repeat([]byte{8}, token.KeySize), a, time.Now()))

	r, err := broker.Call(ctx, cp, broker.CallRequest{Workspace: "ws-7", Tool: "s:echo", Token: tok, Body: []byte(`{"text":"over nats"}`)}, 3, 3*time.Second)
	require.NoError(t, err)
	assert.Equal(t, 200, r.Status)
	assert.True(t, clitest.DecodeOutput(t, string(r.Body)).Success, string(r.Body))

	req, err := http.NewRequest("POST", url+"/commands", strings.NewReader(`{"command":"pause"}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	require.Equal(t, 202, resp.StatusCode)
	// Filtered to commands: the stream also carries the workspace's evidence heads.
	cons, err := js.CreateOrUpdateConsumer(ctx, broker.EventStream, jetstream.ConsumerConfig{Durable: "cp", AckPolicy: jetstream.AckExplicitPolicy,
		FilterSubject: broker.EventSubject("ws-7", events.KindCommand)})
	require.NoError(t, err)
	msg, err := cons.Next(jetstream.FetchMaxWait(15 * time.Second))
	require.NoError(t, err, "the command did not reach the event stream")
	var ev events.Event
	require.NoError(t, json.Unmarshal(msg.Data(), &ev))
	assert.Equal(t, events.KindCommand, ev.Kind)
	assert.Equal(t, "ws-7", ev.From, "from is the enrolled subject")
	assert.Equal(t, "ws-7", ev.Source, "so is the source, an input of the event id")
	assert.Equal(t, broker.EventSubject("ws-7", events.KindCommand), msg.Subject())

	require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGTERM))
	code, stderr := exited(t)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "joining NATS at nats://cmdbridge:xxxxx@")
	assert.NotContains(t, stderr, "s3cret-pw")
}
