package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/cmdbridge/cmdbridge/internal/tailbuf"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/surface/mcp/mcptest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// childEnv holds the workspace of the stdio server process.
const childEnv = "CMDBRIDGE_MCP_STDIO_CHILD_WORKSPACE"

// testProgressInterval is how often the test servers report progress.
const testProgressInterval = 50 * time.Millisecond

// restoredLine is what the child writes to stderr once it has checked that descriptor
// 1 and os.Stdout are back to what they were.
const restoredLine = "stdio restored"

// stdioChild serves the fixture kernel on the process's stdin and stdout, then checks
// the restore. It returns the exit code.
func stdioChild() int {
	var before unix.Stat_t
	if err := unix.Fstat(1, &before); err != nil {
		fmt.Fprintln(os.Stderr, "fstat 1:", err)
		return 3
	}
	stdout := os.Stdout
	k := newFixtureKernel(&childTB{}, os.Getenv(childEnv), nil)
	defer k.Close()
	// SIGTERM is how a host stops the server while the client keeps the stream open.
	ctx, stop := signal.NotifyContext(context.Background(), unix.SIGTERM)
	defer stop()
	if err := mcp.ServeStdio(ctx, k, testCaller, os.Stdin, os.Stdout, mcp.Config{ProgressInterval: testProgressInterval}); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		return 1
	}
	var after unix.Stat_t
	if err := unix.Fstat(1, &after); err != nil {
		fmt.Fprintln(os.Stderr, "fstat 1:", err)
		return 3
	}
	if after.Dev != before.Dev || after.Ino != before.Ino || os.Stdout != stdout {
		fmt.Fprintln(os.Stderr, "descriptor 1 or os.Stdout not restored")
		return 4
	}
	fmt.Fprintln(os.Stderr, restoredLine)
	return 0
}

// childTB lets the fixture builders run outside a test: a failed require panics.
type childTB struct{ testing.TB }

func (childTB) Helper() {}
func (childTB) Errorf(format string, args ...any) {
	panic(fmt.Sprintf(format, args...))
}
func (childTB) FailNow() { panic("fixture setup failed") }

// teeReadCloser records every byte the client reads from the server.
type teeReadCloser struct {
	io.Reader
	io.Closer
}

// startChild runs the stdio server process and connects an SDK client to it over its
// pipes, recording every byte the server writes to its stdout in stream.
func startChild(ctx context.Context, t *testing.T) (cmd *exec.Cmd, cs *sdkmcp.ClientSession, stream, stderr *tailbuf.Buffer) {
	t.Helper()
	cmd = exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+t.TempDir())
	stderr, stream = tailbuf.New(captureMax), tailbuf.New(captureMax)
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	transport := &sdkmcp.IOTransport{Reader: teeReadCloser{io.TeeReader(stdout, stream), stdout}, Writer: stdin}
	cs, err = sdkmcp.NewClient(&sdkmcp.Implementation{Name: "stdio-test", Version: "v0"}, nil).Connect(ctx, transport, nil)
	require.NoError(t, err)
	return cmd, cs, stream, stderr
}

func TestStdioStreamSurvivesStrayStdoutWrites(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd, cs, stream, stderr := startChild(ctx, t)

	for i, name := range []string{"Ada", "Grace"} {
		res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_greet", Arguments: map[string]any{"name": name, "noisy": true}})
		require.NoError(t, err, "call %d", i)
		out := mcptest.DecodeResult(t, res)
		require.True(t, out.Success, "%+v", out.Error)
		data, err := json.Marshal(out.Data)
		require.NoError(t, err)
		assert.JSONEq(t, `{"greeting":"hello, `+name+`"}`, string(data))
	}
	res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_fail", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Equal(t, tool.CodeNotFound, mcptest.DecodeResult(t, res).Error.Code)
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	assert.Len(t, tools.Tools, 9)

	// Closing stdin ends the session; the child then checks the restore and exits.
	require.NoError(t, cs.Close())
	require.NoError(t, cmd.Wait(), "child stderr:\n%s", stderr.String())

	// Every line the client read is one JSON-RPC message: no stray byte got in.
	sc := bufio.NewScanner(bytes.NewReader([]byte(stream.String())))
	lines := 0
	for sc.Scan() {
		var msg map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &msg), "stream line %q", sc.Text())
		assert.Equal(t, "2.0", msg["jsonrpc"])
		lines++
	}
	assert.GreaterOrEqual(t, lines, 5, "initialize, three calls and the listing")
	assert.NotContains(t, stream.String(), "GARBAGE")
	// The stray writes went to stderr, once per noisy call each.
	errText := stderr.String()
	assert.Equal(t, 2, bytes.Count([]byte(errText), []byte(strayViaPackageVar)), errText)
	assert.Equal(t, 2, bytes.Count([]byte(errText), []byte(strayViaFD1)), errText)
	assert.Contains(t, errText, restoredLine)
}

func TestStdioStopsAndRestoresWhenTheHostCancels(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd, cs, _, stderr := startChild(ctx, t)
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_greet", Arguments: map[string]any{"name": "Ada", "noisy": true}})
	require.NoError(t, err)
	require.False(t, res.IsError)

	// The client keeps stdin open: only the host's cancellation ends the server.
	require.NoError(t, cmd.Process.Signal(unix.SIGTERM))
	require.NoError(t, cmd.Wait(), "child stderr:\n%s", stderr.String())
	assert.Contains(t, stderr.String(), restoredLine)
}

// captureMax bounds what the test keeps of a child's stream (it keeps all of it).
const captureMax = 64 << 20
