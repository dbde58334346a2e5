package integration_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands/commandstest"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/tool"

	"github.com/cmdbridge/cmdbridge/internal/gittest"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
)

// writerKernel is a kernel over ws with the real corpus, as a host builds one; two of
// them on one workspace are two hosts (a serve and an mcp) sharing nothing in memory.
func writerKernel(t *testing.T, ws string, routes map[string]string) *kernel.Kernel {
	t.Helper()
	cfg := corpusConfig(ws)
	cfg.LookupEnv, cfg.Routes, cfg.Legacy = os.LookupEnv, routes, adapter.Config{Binary: commandstest.Exe(t)}
	k, err := assemble.Kernel(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	return k
}

// TestParallelWritesFromTwoSurfacesAreSerialised: 20 wu:create calls at once, half over
// HTTP to one kernel and half over MCP to another on the same repository, give 20 WUs
// with consecutive ids and 20 commits, and leave nothing behind — on every lane: native
// (its route), adapter (routed there), and subprocess (forced per call, which no surface
// offers, so those calls go to the two kernels directly).
func TestParallelWritesFromTwoSurfacesAreSerialised(t *testing.T) {
	for _, lane := range []string{kernel.LaneNative, kernel.LaneAdapter, kernel.LaneSubprocess} {
		t.Run(lane, func(t *testing.T) { parallelCreates(t, lane) })
	}
}

func parallelCreates(t *testing.T, lane string) {
	ws := gitWorkspace(t)
	_, stderr, code := run(t, ws, "call", "workspace:init", "--input", `{"name":"demo"}`)
	require.Equal(t, 0, code, stderr)
	gittest.Run(t, ws, "add", "-A")
	gittest.Run(t, ws, "commit", "-qm", "chore: demo workspace")
	base := strings.Count(gittest.Run(t, ws, "log", "--oneline"), "\n")

	var routes map[string]string
	if lane == kernel.LaneAdapter {
		routes = map[string]string{"wu:create": "adapter"}
	}
	// HTTP host.
	kh := writerKernel(t, ws, routes)
	key := []byte("0123456789abcdef0123456789abcdef")
	srv, err := surfacehttp.New(surfacehttp.Config{Kernel: kh, Key: key})
	require.NoError(t, err)
	hts := httptest.NewServer(srv)
	t.Cleanup(func() { hts.Close(); srv.Close() })
	tok, _, err := token.Mint(key, token.MintOptions{Subject: "http-agent", Tools: []string{"*"}, Read: []string{"."}, Write: []string{"."}, TTL: time.Hour})
	require.NoError(t, err)

	// MCP host.
	km := writerKernel(t, ws, routes)
	h, err := mcp.HTTPHandler(km, kernel.WorkspaceCaller("mcp-agent"), mcp.Config{})
	require.NoError(t, err)
	mts := httptest.NewServer(h)
	t.Cleanup(mts.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "parallel", Version: "v0"}, nil).Connect(ctx,
		&sdkmcp.StreamableClientTransport{Endpoint: mts.URL, HTTPClient: mts.Client()}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })

	// The MCP default policy asks for destructive calls; wu:create is not destructive.
	input := func(i int) map[string]any {
		return map[string]any{"lane": "General", "title": fmt.Sprintf("Parallel WU %02d", i),
			"description": "Created by one of twenty parallel callers to prove writes are serialised.",
			"acceptance":  []string{"exists"}, "code_paths": []string{"internal/p.go"}, "exposure": "api"}
	}
	var mu sync.Mutex
	var ids []string
	var failures []string
	record := func(out tool.Output) {
		mu.Lock()
		defer mu.Unlock()
		if !out.Success {
			failures = append(failures, fmt.Sprintf("%+v", out.Error))
			return
		}
		var data struct {
			ID string `json:"id"`
		}
		raw, _ := json.Marshal(out.Data) // a map, or the raw bytes a lane handed over
		_ = json.Unmarshal(raw, &data)
		id := data.ID
		ids = append(ids, id)
		if got, _ := out.Metadata["lane"].(string); got != lane {
			failures = append(failures, fmt.Sprintf("%s ran on lane %q", id, got))
		}
	}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if lane == kernel.LaneSubprocess {
				k := []*kernel.Kernel{kh, km}[i%2]
				in, _ := json.Marshal(input(i))
				res := k.Call(ctx, kernel.Request{Tool: "wu:create", Input: in, Lane: lane, Caller: kernel.WorkspaceCaller("direct")})
				assert.Equal(t, lane, res.Receipt.Lane)
				record(res.Output)
				return
			}
			if i%2 == 0 {
				body, _ := json.Marshal(input(i))
				req, _ := http.NewRequestWithContext(ctx, "POST", hts.URL+"/tools/wu:create", strings.NewReader(string(body)))
				req.Header.Set("Authorization", "Bearer "+tok)
				resp, err := hts.Client().Do(req)
				if !assert.NoError(t, err) {
					return
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				var out tool.Output
				if assert.NoError(t, json.Unmarshal(b, &out), string(b)) {
					record(out)
				}
				return
			}
			res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "wu_create", Arguments: input(i)})
			if !assert.NoError(t, err) {
				return
			}
			var out tool.Output
			raw, _ := json.Marshal(res.StructuredContent)
			if assert.NoError(t, json.Unmarshal(raw, &out), string(raw)) {
				record(out)
			}
		}()
	}
	wg.Wait()
	require.Empty(t, failures, "every parallel create succeeds")
	require.Len(t, ids, 20)
	sort.Slice(ids, func(a, b int) bool { return wuNumber(ids[a]) < wuNumber(ids[b]) })
	for i, id := range ids {
		assert.Equal(t, fmt.Sprintf("WU-%d", i+1), id, "ids are consecutive")
	}
	assert.Equal(t, base+20, strings.Count(gittest.Run(t, ws, "log", "--oneline"), "\n"), "one commit per create")
	assert.Empty(t, gittest.Run(t, ws, "status", "--porcelain"), "nothing orphaned")
	tracked := 0
	for _, f := range strings.Split(gittest.Run(t, ws, "ls-files"), "\n") {
		if strings.Contains(filepath.Base(f), "WU-") {
			tracked++
		}
	}
	assert.Equal(t, 20, tracked, "20 WU files, all committed")
}

func wuNumber(id string) int {
	var n int
	_, _ = fmt.Sscanf(id, "WU-%d", &n)
	return n
}
