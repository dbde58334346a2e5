package integration_test

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/gittest"
	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/surface/cli/clitest"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
)

// TestRemoteClaimOverNATS is the conductor walkthrough on the real corpus and a real
// repository: a control plane claims a WU over the broker, the claim's tool_called
// event arrives with the call's ids, and a redelivery of the claim (same key) answers
// the recorded result without claiming twice — one claim commit. A failed 'conductor
// call' prints its key, and 'conductor call --key' with it, after the first delivery
// ran with its reply lost, answers the recorded claim.
func TestRemoteClaimOverNATS(t *testing.T) {
	ns := clitest.StartNATS(t, &server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir()})

	ws := gitWorkspace(t)
	call := func(name, input string) {
		t.Helper()
		out, errs, code := run(t, ws, "call", name, "--input", input)
		require.Equal(t, 0, code, "%s: %s %s", name, out, errs)
	}
	call("workspace:init", `{"name":"demo"}`)
	gittest.Run(t, ws, "add", "-A")
	gittest.Run(t, ws, "commit", "-qm", "chore: demo workspace")
	call("wu:create", `{"lane":"General","title":"Add health endpoint","description":"Expose GET /healthz so the load balancer can probe instances.","acceptance":["GET /healthz returns 200"],"code_paths":["internal/api/health.go"],"exposure":"api"}`)
	enrollTok, _, err := token.Mint(bytes.Repeat([]byte{3}, token.KeySize), token.MintOptions{Subject: "ws-demo", Tools: []string{}, TTL: time.Hour})
	require.NoError(t, err)
	_, errs, code := run(t, ws, "enroll", enrollTok)
	require.Equal(t, 0, code, errs)
	out, errs, code := run(t, ws, "token", "mint", "--subject", "control", "--tools", "wu:*", "--read", ".", "--write", ".", "--events", "*", "--ttl", "1h")
	require.Equal(t, 0, code, errs)
	tok := strings.TrimSpace(out)

	cp, err := nats.Connect(ns.ClientURL())
	require.NoError(t, err)
	t.Cleanup(cp.Close)
	// tool_called only: the workspace also publishes its evidence heads (at start, and a
	// second after a call), which say nothing about a claim.
	tail, err := cp.SubscribeSync("cmdbridge.ws-demo.events.agent-runtime:tool_called")
	require.NoError(t, err)
	require.NoError(t, cp.Flush())

	_, exited := clitest.StartServe(t, ws, corpusHost(), "--nats", ns.ClientURL())
	claimIn := `{"id":"WU-1","lane":"General"}`

	// A conductor call that gets no reply fails and names the key to retry with.
	cpDir := t.TempDir()
	_, errs, code = run(t, cpDir, "conductor", "call", "--nats", ns.ClientURL(), "--to", "ws-nobody", "--timeout", "1s", "wu:claim", "--input", claimIn)
	require.NotEqual(t, 0, code)
	k := regexp.MustCompile(`--key (\S+)`).FindStringSubmatch(errs)
	require.NotNil(t, k, "no key to retry with in: %s", errs)
	key := k[1]

	// Say that call did reach the workspace and ran, and only its reply was lost: the
	// claim is delivered with that key, and the conductor never sees the answer.
	lost := nats.NewMsg(broker.ToolSubject("ws-demo", "wu:claim"))
	lost.Header.Set(broker.AuthHeader, "Bearer "+tok)
	lost.Header.Set(nats.MsgIdHdr, key)
	lost.Data = []byte(claimIn)
	var firstBody []byte
	deadline := time.Now().Add(time.Minute)
	for {
		r, err := cp.RequestMsg(lost, 20*time.Second)
		if err == nil {
			require.Equal(t, "200", r.Header.Get(broker.StatusHeader))
			firstBody = r.Data
			break
		}
		require.ErrorIs(t, err, nats.ErrNoResponders, "the sidecar is not serving yet")
		require.True(t, time.Now().Before(deadline), "the sidecar never served")
		time.Sleep(50 * time.Millisecond)
	}
	claimed := clitest.DecodeOutput(t, string(firstBody))
	require.True(t, claimed.Success, string(firstBody))

	// The retry with the printed key answers the recorded claim and claims nothing again.
	out, errs, code = run(t, cpDir, "conductor", "call", "--nats", ns.ClientURL(), "--to", "ws-demo", "--token", tok, "--key", key, "wu:claim", "--input", claimIn)
	require.Equal(t, 0, code, out+errs)
	assert.Equal(t, string(firstBody), out, "the retry got the first run's reply")

	req := broker.CallRequest{Workspace: "ws-demo", Tool: "wu:claim", Token: tok, Body: []byte(claimIn), Key: key}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	first := broker.Reply{Status: 200, Body: firstBody}

	m, err := tail.NextMsg(15 * time.Second)
	require.NoError(t, err, "no tool_called for the claim")
	assert.Equal(t, "cmdbridge.ws-demo.events.agent-runtime:tool_called", m.Subject)
	assert.Contains(t, string(m.Data), `"tool":"wu:claim"`)
	assert.Contains(t, string(m.Data), claimed.Metadata["call_id"].(string), "the event carries the call's id")
	assert.Regexp(t, `^[0-9a-f]{64}$`, m.Header.Get(nats.MsgIdHdr))

	again, err := broker.Call(ctx, cp, req, 5, 20*time.Second)
	require.NoError(t, err)
	assert.True(t, again.Replayed)
	assert.Equal(t, first.Body, again.Body)
	_, err = tail.NextMsg(500 * time.Millisecond)
	assert.ErrorIs(t, err, nats.ErrTimeout, "a replayed call does not run, so it makes no event")
	log := gittest.Run(t, ws, "log", "--oneline")
	assert.Equal(t, 1, strings.Count(log, "claim"), "one claim commit:\n%s", log)

	require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGTERM))
	code, stderr := exited(t)
	assert.Equal(t, 0, code, stderr)
}
