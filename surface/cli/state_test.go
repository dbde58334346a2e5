package cli_test

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

// gitRepo is a repository with an identity and one commit holding a.txt, under no
// global or system git configuration.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git on the host")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	ws, err := filepath.EvalSymlinks(clitest.Workspace(t))
	require.NoError(t, err)
	gittest.Run(t, ws, "init", "-q", "-b", "main")
	gittest.Run(t, ws, "config", "user.email", "demo@example.invalid")
	gittest.Run(t, ws, "config", "user.name", "Demo")
	gittest.Run(t, ws, "add", "a.txt")
	gittest.Run(t, ws, "commit", "-qm", "a file")
	return ws
}

// TestStateLivesOutsideTheWorkTree: in a repository, the bridge's own state (evidence,
// keys) lives under the git common dir, shared by every worktree: calls leave git status
// clean in the main checkout and in a worktree, a call from the worktree joins the same
// log, and an older .cmdbridge/ is moved there on first start. (The corpus's WU
// lifecycle over worktrees is the integration package's test of the same name.)
func TestStateLivesOutsideTheWorkTree(t *testing.T) {
	ws := gitRepo(t)
	// An older cmdbridge left its evidence in the work tree.
	legacy := filepath.Join(ws, ".cmdbridge", "evidence")
	require.NoError(t, os.MkdirAll(legacy, 0o755))

	call := func(dir, name, input string) {
		t.Helper()
		stdout, stderr, code := run(t, dir, "call", name, "--input", input)
		require.Equal(t, 0, code, "%s: %s %s", name, stdout, stderr)
		require.True(t, clitest.DecodeOutput(t, stdout).Success, stdout)
	}
	call(ws, "doc:read", `{"path":"a.txt"}`)
	state := filepath.Join(ws, ".git", "cmdbridge")
	_, err := os.Stat(filepath.Join(state, "evidence", "receipts.jsonl"))
	require.NoError(t, err, "the legacy evidence directory moved under the common dir")
	_, err = os.Stat(legacy)
	assert.True(t, os.IsNotExist(err), "nothing left in the work tree")
	require.NoError(t, os.Remove(filepath.Join(ws, ".cmdbridge")))
	assert.Empty(t, gittest.Run(t, ws, "status", "--porcelain"), "calls leave the main checkout clean")

	wt := filepath.Join(t.TempDir(), "wt")
	gittest.Run(t, ws, "worktree", "add", "-q", "-b", "feature", wt)
	call(wt, "doc:read", `{"path":"a.txt","end_line":1}`)
	call(wt, "repo:status", `{}`)
	assert.Empty(t, gittest.Run(t, wt, "status", "--porcelain"), "a call from the worktree leaves it clean")
	_, err = os.Stat(filepath.Join(wt, ".cmdbridge"))
	assert.True(t, os.IsNotExist(err), "no state in the worktree")
	stdout, stderr, code := run(t, wt, "evidence", "verify")
	require.Equal(t, 0, code, "the worktree finds the same log: %s", stdout+stderr)

	stdout, _, code = run(t, ws, "evidence", "verify", "--json")
	require.Equal(t, 0, code, stdout)
	assert.True(t, strings.Contains(stdout, `"records": 3`) || strings.Contains(stdout, `"records":3`), "one log for every worktree: %s", stdout)
	assert.Empty(t, gittest.Run(t, ws, "status", "--porcelain"))
}
