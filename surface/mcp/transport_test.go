package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/tailbuf"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
)

// rawChild is the stdio server process driven line by line, without an SDK client.
type rawChild struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan map[string]any // every message the server wrote, in order
	stderr *tailbuf.Buffer
}

func startRawChild(ctx context.Context, t *testing.T) *rawChild {
	t.Helper()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+t.TempDir())
	c := &rawChild{t: t, cmd: cmd, lines: make(chan map[string]any, 1000), stderr: tailbuf.New(captureMax)}
	cmd.Stderr = c.stderr
	var err error
	c.stdin, err = cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 32<<20)
		for sc.Scan() {
			var msg map[string]any
			if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
				msg = map[string]any{"unparsable": sc.Text()}
			}
			c.lines <- msg
		}
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return c
}

func (c *rawChild) send(line string) {
	c.t.Helper()
	_, err := io.WriteString(c.stdin, line+"\n")
	require.NoError(c.t, err)
}

// next returns the next message, failing after a minute.
func (c *rawChild) next() map[string]any {
	c.t.Helper()
	select {
	case msg, ok := <-c.lines:
		require.True(c.t, ok, "the server closed its output; stderr:\n%s", c.stderr.String())
		return msg
	case <-time.After(time.Minute):
		c.t.Fatalf("no message from the server; stderr:\n%s", c.stderr.String())
		return nil
	}
}

// rest closes stdin and returns every message written until the server exits.
func (c *rawChild) rest() []map[string]any {
	c.t.Helper()
	require.NoError(c.t, c.stdin.Close())
	var out []map[string]any
	for msg := range c.lines {
		out = append(out, msg)
	}
	require.NoError(c.t, c.cmd.Wait(), "stderr:\n%s", c.stderr.String())
	return out
}

const initLine = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

func (c *rawChild) initialize() {
	c.t.Helper()
	c.send(initLine)
	msg := c.next()
	require.EqualValues(c.t, 0, msg["id"], msg)
	require.NotNil(c.t, msg["result"], msg)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func callLine(id int, name string, args string, meta string) string {
	params := fmt.Sprintf(`{"name":%q,"arguments":%s`, name, args)
	if meta != "" {
		params += `,"_meta":` + meta
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}}`, id, params)
}

func byID(msgs []map[string]any) map[float64]map[string]any {
	out := map[float64]map[string]any{}
	for _, m := range msgs {
		if id, ok := m["id"].(float64); ok {
			out[id] = m
		}
	}
	return out
}

// A client that writes its requests and closes stdin at once still gets every answer,
// the slow one included.
func TestStdioAnswersEveryRequestReadBeforeEOF(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := startRawChild(ctx, t)
	c.initialize()
	c.send(callLine(1, "fx_sleep", `{"ms":300}`, `{"`+mcp.TimeoutMetaKey+`":10000}`))
	for id := 2; id <= 20; id++ {
		c.send(callLine(id, "fx_echo", fmt.Sprintf(`{"text":"m%d"}`, id), ""))
	}
	got := byID(c.rest())
	for id := 1; id <= 20; id++ {
		msg, ok := got[float64(id)]
		if assert.True(t, ok, "request %d answered", id) {
			res := msg["result"].(map[string]any)
			assert.NotEqual(t, true, res["isError"], "request %d: %v", id, res)
		}
	}
	assert.Contains(t, c.stderr.String(), restoredLine)
}

// A malformed line is answered and the session goes on.
func TestStdioMalformedLinesAreAnsweredAndTheSessionGoesOn(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := startRawChild(ctx, t)
	c.initialize()
	cases := []struct {
		line string
		id   any
		code float64
	}{
		{`{this is not json`, nil, -32700},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/list"`, nil, -32700}, // cut short
		{`{"hello":"world"}`, nil, -32600},
		{`{"jsonrpc":"1.0","id":8,"method":"tools/list"}`, 8.0, -32600},
		{`[{"jsonrpc":"2.0","id":9,"method":"tools/list"}]`, nil, -32600},
	}
	for _, tc := range cases {
		c.send(tc.line)
		msg := c.next()
		assert.Equal(t, tc.id, msg["id"], tc.line)
		errObj, ok := msg["error"].(map[string]any)
		if assert.True(t, ok, "%s: %v", tc.line, msg) {
			assert.Equal(t, tc.code, errObj["code"], tc.line)
		}
	}
	c.send(callLine(10, "fx_echo", `{"text":"still here"}`, ""))
	msg := c.next()
	assert.EqualValues(t, 10, msg["id"])
	assert.Contains(t, fmt.Sprint(msg["result"]), "still here")
	c.rest()
}

func TestStdioRequestBeforeInitializeIsAnInvalidRequest(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := startRawChild(ctx, t)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	msg := c.next()
	assert.EqualValues(t, 1, msg["id"])
	errObj, ok := msg["error"].(map[string]any)
	require.True(t, ok, "%v", msg)
	assert.Equal(t, float64(mcp.CodeNotInitialized), errObj["code"])
	assert.Contains(t, errObj["message"], "initialize")
	// The session is usable once initialized.
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	msg = c.next()
	assert.EqualValues(t, 2, msg["id"])
	assert.NotNil(t, msg["result"])
	c.rest()
}

// A cancelled request gets no response; the requests around it do.
func TestStdioCancelledRequestGetsNoResponse(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := startRawChild(ctx, t)
	c.initialize()
	c.send(callLine(1, "fx_sleep", `{"ms":20000}`, `{"`+mcp.TimeoutMetaKey+`":20000}`))
	c.send(callLine(2, "fx_echo", `{"text":"before"}`, ""))
	msg := c.next() // the echo: the sleep is certainly running by now
	require.EqualValues(t, 2, msg["id"], msg)
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}}`)
	c.send(callLine(3, "fx_echo", `{"text":"after"}`, ""))
	rest := c.rest() // returns once the cancelled call ended: nothing is owed for it
	got := byID(rest)
	assert.NotContains(t, got, 1.0, "no response for the cancelled request: %v", rest)
	assert.Contains(t, got, 3.0)
	assert.False(t, strings.Contains(fmt.Sprint(rest), "fx:sleep"), "%v", rest)
}

// Progress for a call is sent while it runs, never after its response.
func TestStdioProgressPrecedesTheResponse(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := startRawChild(ctx, t)
	c.initialize()
	for i := 1; i <= 4; i++ {
		c.send(callLine(i, "fx_sleep", `{"ms":300}`, fmt.Sprintf(`{"progressToken":%d,"%s":5000}`, i, mcp.TimeoutMetaKey)))
		progress := 0
		for {
			m := c.next()
			if m["id"] != nil {
				assert.EqualValues(t, i, m["id"])
				break
			}
			assert.Equal(t, "notifications/progress", m["method"])
			params := m["params"].(map[string]any)
			assert.EqualValues(t, i, params["progressToken"], "progress for the running call only")
			progress++
		}
		assert.Positive(t, progress, "call %d: a 300 ms call reporting every %s sends progress", i, testProgressInterval)
	}
	for _, m := range c.rest() {
		t.Errorf("nothing follows the last response: %v", m)
	}
}
