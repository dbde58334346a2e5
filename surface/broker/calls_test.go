package broker_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/broker"
	"github.com/cmdbridge/cmdbridge/tool"
)

func decode(t testing.TB, b []byte) tool.Output {
	t.Helper()
	var o tool.Output
	require.NoError(t, json.Unmarshal(b, &o), string(b))
	return o
}

func codeOf(o tool.Output) string {
	if o.Error == nil {
		return ""
	}
	return o.Error.Code
}

func call(t testing.TB, nc *nats.Conn, req broker.CallRequest) broker.Reply {
	t.Helper()
	r, err := broker.Call(context.Background(), nc, req, 1, 10*time.Second)
	require.NoError(t, err)
	return r
}

// TestToolCallsOverNATS: the same checks as POST /tools, in the same order, and the
// same kernel path (a receipt per dispatched call, none for refusals).
func TestToolCallsOverNATS(t *testing.T) {
	node := singleNode(t)
	nc := connect(t, node.url())
	var runs atomic.Int64
	// No control-plane caller: a call without a token has no identity.
	w := newWorkspaceControl(t, nc, "ws-1", t.TempDir(), t.TempDir(), &runs, nil, nil, "")
	reader := mint(t, "ws-1", []string{"t:echo", "t:count"}, false)
	writer := mint(t, "ws-1", []string{"t:echo", "t:count"}, true)

	r := call(t, nc, broker.CallRequest{Workspace: "ws-1", Tool: "t:echo", Token: reader, Body: []byte(`{"text":"hi"}`)})
	require.Equal(t, 200, r.Status)
	out := decode(t, r.Body)
	require.True(t, out.Success, string(r.Body))
	assert.Equal(t, map[string]any{"text": "hi"}, out.Data)
	assert.Regexp(t, `^call-`, out.Metadata["call_id"], "the kernel's receipt id")
	assert.EqualValues(t, 1, w.receipts.Load())

	// Refusals before the kernel: no receipt.
	r = call(t, nc, broker.CallRequest{Workspace: "ws-1", Tool: "t:echo", Token: "", Body: []byte(`{}`)})
	assert.Equal(t, 401, r.Status)
	r = call(t, nc, broker.CallRequest{Workspace: "ws-1", Tool: "t:echo", Token: reader + "x", Body: []byte(`{}`)})
	assert.Equal(t, 401, r.Status)
	hidden := call(t, nc, broker.CallRequest{Workspace: "ws-1", Tool: "t:hidden", Token: reader})
	unknown := call(t, nc, broker.CallRequest{Workspace: "ws-1", Tool: "t:nope", Token: reader})
	assert.Equal(t, 404, hidden.Status)
	assert.Equal(t, hidden, unknown, "a hidden tool is answered exactly like an unknown one")
	r = call(t, nc, broker.CallRequest{Workspace: "ws-1", Tool: "t:echo", Token: reader, Body: []byte(`[1]`)})
	assert.Equal(t, 400, r.Status)
	assert.Equal(t, tool.CodeInvalidInput, codeOf(decode(t, r.Body)))
	assert.EqualValues(t, 1, w.receipts.Load(), "refusals never reach the kernel")

	// Scopes and validation are the kernel's: dispatched, refused, receipted.
	r = call(t, nc, broker.CallRequest{Workspace: "ws-1", Tool: "t:count", Token: reader, Key: "k-ro"})
	assert.Equal(t, 200, r.Status)
	assert.Equal(t, tool.CodeScopeDenied, codeOf(decode(t, r.Body)))
	r = call(t, nc, broker.CallRequest{Workspace: "ws-1", Tool: "t:echo", Token: writer, Body: []byte(`{"from":"ws-2"}`)})
	assert.Equal(t, tool.CodeInvalidInput, codeOf(decode(t, r.Body)), "a body cannot carry an identity")
	assert.EqualValues(t, 3, w.receipts.Load())
	assert.Zero(t, runs.Load())

	// A message that names another workspace is refused before its token is read.
	m := nats.NewMsg(broker.ToolSubject("ws-1", "t:echo"))
	m.Header.Set(broker.AuthHeader, "Bearer "+writer)
	m.Header.Set(broker.WorkspaceHeader, "ws-2")
	rm, err := nc.RequestMsg(m, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "403", rm.Header.Get(broker.StatusHeader))
	assert.Equal(t, tool.CodeScopeDenied, codeOf(decode(t, rm.Data)))
	assert.EqualValues(t, 3, w.receipts.Load())
}

// TestWriteCallRunsOnce is the exactly-once-effect test: a keyed write call delivered
// again — after its reply, while it still runs, after a lost reply, after the sidecar
// restarted — runs once and every delivery gets the first run's reply.
func TestWriteCallRunsOnce(t *testing.T) {
	node := singleNode(t)
	nc := connect(t, node.url())
	var runs atomic.Int64
	dir, state := t.TempDir(), t.TempDir()
	release := make(chan struct{})
	w := newWorkspace(t, nc, "ws-1", dir, state, &runs, release)
	writer := mint(t, "ws-1", []string{"t:*"}, true)
	req := broker.CallRequest{Workspace: "ws-1", Tool: "t:count", Token: writer, Body: []byte(`{"note":"once"}`), Key: "key-1"}

	// A lost reply: the first try times out while the tool waits, the retry (same key)
	// arrives while the first still runs and waits for it.
	done := make(chan broker.Reply, 1)
	go func() {
		r, err := broker.Call(context.Background(), nc, req, 5, 300*time.Millisecond)
		assert.NoError(t, err)
		done <- r
	}()
	// Concurrent duplicates of the same call.
	const dups = 8
	var wg sync.WaitGroup
	replies := make([]broker.Reply, dups)
	for i := range dups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := broker.Call(context.Background(), nc, req, 1, 20*time.Second)
			assert.NoError(t, err)
			replies[i] = r
		}()
	}
	time.Sleep(800 * time.Millisecond) // the first try has timed out and been retried
	close(release)
	first := <-done
	wg.Wait()
	require.Equal(t, 200, first.Status)
	out := decode(t, first.Body)
	require.True(t, out.Success, string(first.Body))
	assert.EqualValues(t, 1, runs.Load(), "the write ran once")
	for i, r := range replies {
		assert.Equal(t, first.Body, r.Body, "duplicate %d got the first run's reply", i)
	}

	// Redelivered after the reply: recorded, replayed, not run.
	again := call(t, nc, req)
	assert.True(t, again.Replayed)
	assert.Equal(t, first.Body, again.Body)
	assert.EqualValues(t, 1, runs.Load())

	// The same key for another call is refused; another caller's key space is its own.
	other := req
	other.Body = []byte(`{"note":"different"}`)
	assert.Equal(t, 409, call(t, nc, other).Status)
	assert.EqualValues(t, 1, runs.Load())
	req2 := req
	req2.Token = mint(t, "ws-1:phone:dev-1", []string{"t:*"}, true)
	assert.False(t, call(t, nc, req2).Replayed)
	assert.EqualValues(t, 2, runs.Load())

	// After a restart of the sidecar on the same state, the log still answers.
	w.close()
	newWorkspace(t, nc, "ws-1", dir, state, &runs, nil)
	var r broker.Reply
	eventually(t, arrives, func() bool {
		var err error
		r, err = broker.Call(context.Background(), nc, req, 1, 2*time.Second)
		return err == nil
	}, "restarted sidecar does not answer")
	assert.True(t, r.Replayed)
	assert.Equal(t, first.Body, r.Body)
	assert.EqualValues(t, 2, runs.Load(), "not run again after the restart")

	// Without a key a write call is not deduplicated (as on HTTP): it runs each time.
	nokey := req
	nokey.Key = ""
	call(t, nc, nokey)
	call(t, nc, nokey)
	assert.EqualValues(t, 4, runs.Load())
}

// TestInDoubtCallIsNotRerun: a keyed call whose begin record is on disk but whose
// sidecar died before the reply was recorded is answered "in doubt", never run again.
func TestInDoubtCallIsNotRerun(t *testing.T) {
	node := singleNode(t)
	nc := connect(t, node.url())
	var runs atomic.Int64
	dir, state := t.TempDir(), t.TempDir()
	release := make(chan struct{})
	w := newWorkspace(t, nc, "ws-1", dir, state, &runs, release)
	writer := mint(t, "ws-1", []string{"t:*"}, true)
	req := broker.CallRequest{Workspace: "ws-1", Tool: "t:count", Token: writer, Key: "key-doubt"}
	go func() { _, _ = broker.Call(context.Background(), nc, req, 1, 2*time.Second) }()
	eventually(t, arrives, func() bool { return w.srv.Active() == 1 }, "the call did not start")
	// The sidecar stops with the call in flight: Close cancels it and the cancelled
	// reply is recorded. To model a crash instead, the log is copied while the call
	// still runs (begin on disk, done not yet) and the restart reads the copy.
	crashed := t.TempDir()
	copyDir(t, state, crashed)
	close(release)
	w.close()
	before := runs.Load()
	newWorkspace(t, nc, "ws-1", t.TempDir(), crashed, &runs, nil)
	r := call(t, nc, req)
	out := decode(t, r.Body)
	assert.Equal(t, tool.CodeExecutionFailed, codeOf(out), string(r.Body))
	require.NotNil(t, out.Error)
	assert.Equal(t, true, out.Error.Details.(map[string]any)["in_doubt"])
	assert.Equal(t, before, runs.Load(), "an in-doubt call is not run again")
}

// copyDir copies the regular files under src into dst.
func copyDir(t testing.TB, src, dst string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o700)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o600)
	}))
}
