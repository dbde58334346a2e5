package integration_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdbridge/cmdbridge/internal/gittest"
	"github.com/cmdbridge/cmdbridge/surface/cli/clitest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitWorkspace is an empty repository with an identity, and the environment the corpus
// needs to commit in it (no global or system git config, a DELIVERY_OWNER).
func gitWorkspace(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git on the host")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("DELIVERY_OWNER", "demo@example.invalid")
	ws, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	gittest.Run(t, ws, "init", "-q", "-b", "main")
	gittest.Run(t, ws, "config", "user.email", "demo@example.invalid")
	gittest.Run(t, ws, "config", "user.name", "Demo")
	return ws
}

// TestStateLivesOutsideTheWorkTree: in a repository, the bridge's own state (evidence,
// keys) lives under the git common dir, shared by every worktree: calls leave git status
// clean, a call from a WU worktree leaves wu:done working, and an older .cmdbridge/ is
// moved there on first start.
func TestStateLivesOutsideTheWorkTree(t *testing.T) {
	ws := gitWorkspace(t)
	// An older cmdbridge left its evidence in the work tree.
	legacy := filepath.Join(ws, ".cmdbridge", "evidence")
	require.NoError(t, os.MkdirAll(legacy, 0o755))

	call := func(dir, name, input string) map[string]any {
		t.Helper()
		stdout, stderr, code := run(t, dir, "call", name, "--input", input)
		require.Equal(t, 0, code, "%s: %s %s", name, stdout, stderr)
		out := clitest.DecodeOutput(t, stdout)
		data, _ := out.Data.(map[string]any)
		return data
	}
	call(ws, "workspace:init", `{"name":"demo"}`)
	state := filepath.Join(ws, ".git", "cmdbridge")
	_, err := os.Stat(filepath.Join(state, "evidence", "receipts.jsonl"))
	require.NoError(t, err, "the legacy evidence directory moved under the common dir")
	_, err = os.Stat(legacy)
	assert.True(t, os.IsNotExist(err), "nothing left in the work tree")
	require.NoError(t, os.Remove(filepath.Join(ws, ".cmdbridge")))
	gittest.Run(t, ws, "add", "-A")
	gittest.Run(t, ws, "commit", "-qm", "chore: demo workspace")

	call(ws, "wu:create", `{"lane":"General","title":"Add health endpoint","description":"Expose GET /healthz returning build info so the load balancer can probe instances.","acceptance":["GET /healthz returns 200"],"code_paths":["internal/api/health.go"],"exposure":"api"}`)
	claimed := call(ws, "wu:claim", `{"id":"WU-1","lane":"General"}`)
	wt, _ := claimed["worktree_path"].(string)
	require.NotEmpty(t, wt, "wu:claim names its worktree: %v", claimed)
	if !filepath.IsAbs(wt) {
		wt = filepath.Join(ws, wt)
	}
	assert.Empty(t, gittest.Run(t, ws, "status", "--porcelain"), "calls leave the main checkout clean")

	// A read from inside the WU worktree: its receipts join the same log, and the
	// worktree stays clean, so wu:done still works.
	call(wt, "wu:status", `{"id":"WU-1"}`)
	call(wt, "file:read", `{"path":"workspace.yaml"}`)
	assert.Empty(t, gittest.Run(t, wt, "status", "--porcelain"), "a call from the worktree leaves it clean")
	_, err = os.Stat(filepath.Join(wt, ".cmdbridge"))
	assert.True(t, os.IsNotExist(err), "no state in the worktree")
	stdout, stderr, code := run(t, wt, "evidence", "verify")
	require.Equal(t, 0, code, "the worktree finds the same log: %s", stdout+stderr)
	// Running the gates is workspace code, which the default policy asks before (a
	// non-interactive call would be APPROVAL_REQUIRED); skipping them is a write.
	call(ws, "wu:done", `{"id":"WU-1","skip_gates":true,"reason":"no gates in this workspace","fix_wu":"WU-1"}`)

	stdout, _, code = run(t, ws, "evidence", "verify", "--json")
	require.Equal(t, 0, code, stdout)
	assert.True(t, strings.Contains(stdout, `"records": 6`) || strings.Contains(stdout, `"records":6`), "one log for every worktree: %s", stdout)
	assert.Empty(t, gittest.Run(t, ws, "status", "--porcelain"))
}
