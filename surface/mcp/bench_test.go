package mcp_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
)

// BenchmarkKernelCall is the baseline the MCP benchmarks are compared with: the same
// native call without any protocol.
func BenchmarkKernelCall(b *testing.B) {
	k := newFixtureKernel(b, b.TempDir(), nil)
	b.Cleanup(func() { _ = k.Close() })
	ctx := context.Background()
	in := json.RawMessage(`{"text":"hi"}`)
	for b.Loop() {
		res := k.Call(ctx, kernel.Request{Tool: "fx:echo", Input: in, Caller: testCaller})
		if !res.Output.Success {
			b.Fatal(res.Output.Error)
		}
	}
}

func benchCall(b *testing.B, cs *sdkmcp.ClientSession, name string, args any) {
	ctx := context.Background()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

func BenchmarkCallInMemory(b *testing.B) {
	k := newFixtureKernel(b, b.TempDir(), nil)
	b.Cleanup(func() { _ = k.Close() })
	benchCall(b, connectInMemory(b, k), "fx_echo", map[string]any{"text": "hi"})
}

func BenchmarkCallInMemoryLegacy(b *testing.B) {
	k := newFixtureKernel(b, b.TempDir(), nil)
	b.Cleanup(func() { _ = k.Close() })
	benchCall(b, connectInMemory(b, k), "fx_greet", map[string]any{"name": "Ada"})
}

func BenchmarkCallHTTP(b *testing.B) {
	k := newFixtureKernel(b, b.TempDir(), nil)
	b.Cleanup(func() { _ = k.Close() })
	h, err := mcp.HTTPHandler(k, testCaller, mcp.Config{})
	require.NoError(b, err)
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	cs, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "bench", Version: "v0"}, nil).Connect(context.Background(),
		&sdkmcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: srv.Client()}, nil)
	require.NoError(b, err)
	b.Cleanup(func() { _ = cs.Close() })
	benchCall(b, cs, "fx_echo", map[string]any{"text": "hi"})
}

// BenchmarkListTools also reports the size of the listing per tool, which is what a
// client pays in context for every tool it is shown.
func BenchmarkListTools(b *testing.B) {
	k := newFixtureKernel(b, b.TempDir(), nil)
	b.Cleanup(func() { _ = k.Close() })
	cs := connectInMemory(b, k)
	ctx := context.Background()
	var res *sdkmcp.ListToolsResult
	for b.Loop() {
		var err error
		if res, err = cs.ListTools(ctx, nil); err != nil {
			b.Fatal(err)
		}
	}
	raw, err := json.Marshal(res.Tools)
	require.NoError(b, err)
	b.ReportMetric(float64(len(raw))/float64(len(res.Tools)), "bytes/tool")
}
