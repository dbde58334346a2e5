package mcp_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/tailbuf"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
)

// mcpClientDir holds the Node scripts and their pinned @modelcontextprotocol/sdk.
var mcpClientDir = filepath.Join("..", "..", "testdata", "mcpclient")

// nodeClient returns the node binary, skipping the test only when the host has none,
// and failing when node is there but the SDK was never installed.
func nodeClient(t testing.TB) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("needs Node.js (node on PATH) to run the official TypeScript MCP client")
	}
	sdk := filepath.Join(mcpClientDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")
	if _, err := os.Stat(sdk); err != nil {
		t.Fatalf("node is installed but %s is missing: run `make deps` (npm ci --prefix testdata/mcpclient)", sdk)
	}
	return node
}

// runNode runs a script of testdata/mcpclient and returns its stdout.
func runNode(t testing.TB, node string, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = mcpClientDir
	cmd.Env = append(os.Environ(), env...)
	stderr := tailbuf.New(captureMax)
	cmd.Stderr = stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node %s\nstderr:\n%s", strings.Join(args, " "), stderr.String())
	return string(out)
}

type conformanceReport struct {
	Transport string `json:"transport"`
	Kernel    string `json:"kernel"`
	Tools     int    `json:"tools"`
	Call      string `json:"call"`
	Error     string `json:"error"`
	Progress  int    `json:"progress"`
	Cancelled string `json:"cancelled"`
}

// TestOfficialTypeScriptClient drives the stdio server (this test binary as a child
// process, like cmdbridge mcp) and the streamable HTTP handler with the official
// TypeScript SDK client, taking the fixture through every kind of call (the whole
// delivery corpus meets the SDK's validation in the integration package).
func TestOfficialTypeScriptClient(t *testing.T) {
	node := nodeClient(t)
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	tools := strconv.Itoa(len(k.Tools()))
	t.Run("stdio", func(t *testing.T) {
		out := runNode(t, node, []string{childEnv + "=" + t.TempDir()}, "conformance.mjs", "stdio", "fixture", tools, os.Args[0], "-test.run=^$")
		checkReport(t, out, "stdio", len(k.Tools()))
	})
	t.Run("http", func(t *testing.T) {
		h, err := mcp.HTTPHandler(k, testCaller, mcp.Config{ProgressInterval: testProgressInterval})
		require.NoError(t, err)
		srv := httptest.NewServer(h)
		defer srv.Close()
		out := runNode(t, node, nil, "conformance.mjs", "http", "fixture", tools, srv.URL)
		checkReport(t, out, "http", len(k.Tools()))
		srv.CloseClientConnections()
	})
}

func checkReport(t *testing.T, out, transport string, tools int) {
	t.Helper()
	var rep conformanceReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	assert.Equal(t, transport, rep.Transport)
	assert.Equal(t, tools, rep.Tools, "every tool listed and accepted by the client")
	assert.Equal(t, "ok", rep.Call)
	assert.Equal(t, "NOT_FOUND", rep.Error)
	assert.Positive(t, rep.Progress)
	assert.Contains(t, rep.Cancelled, "test cancels", "the client saw its own abort, not a server answer")
}

// benchTS runs bench.mjs for at least 1000 calls of fx_echo and reports the
// client-side latency percentiles. Node's start-up makes one run take over a second, so
// b.N stays small: the metrics are per call, not per b.N. ns/op is the mean call
// (start-up and session set-up excluded); B/op and allocs/op are what this process
// allocated per call (the HTTP server's cost; next to nothing for stdio, whose server
// is a child process).
func benchTS(b *testing.B, env []string, args ...string) {
	node := nodeClient(b)
	n := max(b.N, 1000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out := runNode(b, node, env, append([]string{"bench.mjs", args[0], strconv.Itoa(n), "fx_echo", `{"text":"hi"}`}, args[1:]...)...)
	runtime.ReadMemStats(&after)
	var rep struct {
		P50  float64 `json:"p50_us"`
		P99  float64 `json:"p99_us"`
		Mean float64 `json:"mean_us"`
	}
	require.NoError(b, json.Unmarshal([]byte(out), &rep), out)
	b.ReportMetric(rep.Mean*1000, "ns/op")
	b.ReportMetric(rep.P50, "p50-µs")
	b.ReportMetric(rep.P99, "p99-µs")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(n), "B/op")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(n), "allocs/op")
}

// BenchmarkTSClientStdio: the official TypeScript client calling a native read tool
// over stdio (this test binary as the server process, as with cmdbridge mcp).
func BenchmarkTSClientStdio(b *testing.B) {
	benchTS(b, []string{childEnv + "=" + b.TempDir()}, "stdio", os.Args[0], "-test.run=^$")
}

// BenchmarkTSClientHTTP: the same over streamable HTTP on loopback.
func BenchmarkTSClientHTTP(b *testing.B) {
	k := newFixtureKernel(b, b.TempDir(), nil)
	b.Cleanup(func() { _ = k.Close() })
	h, err := mcp.HTTPHandler(k, testCaller, mcp.Config{})
	require.NoError(b, err)
	srv := httptest.NewServer(h)
	defer srv.Close()
	benchTS(b, nil, "http", srv.URL)
	srv.CloseClientConnections()
}
