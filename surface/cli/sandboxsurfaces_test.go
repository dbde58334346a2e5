package cli_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/surface/cli/clitest"
)

// TestSandboxedToolRunsSandboxedOnEverySurface: one kernel builder serves call, batch,
// serve and mcp, so a tool the configuration sandboxes runs in bwrap on each of them
// (serve once built its own kernel without the sandbox lane and answered
// SANDBOX_UNAVAILABLE).
func TestSandboxedToolRunsSandboxedOnEverySurface(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("needs bubblewrap (bwrap) on the host")
	}
	ws := clitest.Workspace(t)
	require.NoError(t, os.MkdirAll(filepath.Join(ws, ".cmdbridge"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".cmdbridge", "config.yaml"), []byte("sandboxed: [doc:read]\n"), 0o644))
	const input = `{"path":"a.txt"}`
	sandboxed := func(t *testing.T, surface string, out map[string]any) {
		t.Helper()
		require.Equal(t, true, out["success"], "%s: %v", surface, out)
		meta, _ := out["metadata"].(map[string]any)
		assert.Equal(t, "sandbox", meta["lane"], "%s: %v", surface, meta)
		data, _ := out["data"].(map[string]any)
		assert.Contains(t, data["content"], "hello", "%s: %v", surface, data)
	}
	decode := func(t *testing.T, s string) map[string]any {
		t.Helper()
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(s), &m), s)
		return m
	}

	t.Run("call", func(t *testing.T) {
		stdout, stderr, code := run(t, ws, "call", "doc:read", "--input", input)
		require.Equal(t, 0, code, stderr)
		sandboxed(t, "call", decode(t, stdout))
	})
	t.Run("batch", func(t *testing.T) {
		batch := filepath.Join(t.TempDir(), "batch.json")
		require.NoError(t, os.WriteFile(batch, []byte(`[{"tool":"doc:read","input":`+input+`}]`), 0o644))
		stdout, stderr, code := run(t, ws, "batch", batch)
		require.Equal(t, 0, code, stderr)
		var outs []map[string]any
		require.NoError(t, json.Unmarshal([]byte(stdout), &outs), stdout)
		require.Len(t, outs, 1)
		sandboxed(t, "batch", outs[0])
	})
	t.Run("mcp", func(t *testing.T) {
		replies, stderr, code := serveMCP(t, ws, nil, `"method":"tools/call","params":{"name":"doc_read","arguments":`+input+`}`)
		require.Equal(t, 0, code, stderr)
		var res struct {
			StructuredContent map[string]any `json:"structuredContent"`
		}
		require.NoError(t, json.Unmarshal(replies[1].Result, &res), string(replies[1].Result))
		sandboxed(t, "mcp", res.StructuredContent)
	})
	t.Run("serve", func(t *testing.T) {
		host := fixtureHost()
		var mintOut, mintErr strings.Builder
		require.Equal(t, 0, cli.Main([]string{"cmdbridge", "--workspace", ws, "token", "mint", "--subject", "ws-1", "--tools", "*", "--read", "."}, &mintOut, &mintErr, host), mintErr.String())
		tok := strings.TrimSpace(mintOut.String())
		url, exited := clitest.StartServe(t, ws, host)
		req, err := http.NewRequest("POST", url+"/tools/doc:read", strings.NewReader(input))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		sandboxed(t, "serve", decode(t, string(b)))
		require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGTERM))
		code, stderr := exited(t)
		assert.Equal(t, 0, code, stderr)
	})
}
