package integration_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/all"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/kerneltest"
)

// TestNoToolReachesStateOrGit: whatever the caller's scopes, no path input reaches the
// evidence log, its keys, the token key or the repository's .git — by any spelling — on
// the real corpus tools.
func TestNoToolReachesStateOrGit(t *testing.T) {
	ws := kerneltest.GitRepo(t)
	cfg := corpusConfig(ws)
	cfg.Policy = allowAll
	k, err := assemble.Kernel(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	state := k.State()
	assert.Equal(t, filepath.Join(ws, ".git", "cmdbridge"), state.Root)
	require.NoError(t, os.WriteFile(state.Path("token.key"), []byte(kerneltest.TokenKey), 0o600))
	ok := k.Call(context.Background(), kernel.Request{Tool: "file:read", Input: json.RawMessage(`{"path":"a.txt"}`), Caller: kernel.WorkspaceCaller("w")})
	require.True(t, ok.Output.Success, "%+v", ok.Output.Error)
	require.NoError(t, k.Close()) // writes the keys and a checkpoint
	cfg.Evidence = kernel.EvidenceConfig{}
	k, err = assemble.Kernel(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })

	kerneltest.SpellingsAreRefused(t, k, ws, func(p string) (reads, writes []kerneltest.Attack) {
		r, w := kerneltest.Reader, kerneltest.Writer
		return []kerneltest.Attack{
				{Caller: r, Tool: "file:read", Input: map[string]any{"path": p}},
				{Caller: w, Tool: "file:read", Input: map[string]any{"path": p}},
				{Caller: r, Tool: "git:diff", Input: map[string]any{"path": p}},
			}, []kerneltest.Attack{
				{Caller: w, Tool: "file:write", Input: map[string]any{"path": p, "content": "x"}},
				{Caller: w, Tool: "file:edit", Input: map[string]any{"path": p, "old_string": "a", "new_string": "b"}},
				{Caller: w, Tool: "file:delete", Input: map[string]any{"path": p}},
				{Caller: w, Tool: "metrics:snapshot", Input: map[string]any{"output": p}},
				{Caller: w, Tool: "git:add", Input: map[string]any{"files": []string{"a.txt", p}}},
				{Caller: w, Tool: "git:commit", Input: map[string]any{"message": "steal", "files": []string{p}}},
			}
	}, kerneltest.PathTools{Read: "file:read", Write: "file:write", WriteInput: map[string]any{"content": "policy: []\n"}})
}

// TestRedTeamHardLinkToStateIsRefused: a hard link inside the work tree to a file of the
// state directory (token.key, signing.key, the receipts), of .git or of the workspace's
// configuration is the same file under another name; the kernel refuses it exactly as
// it refuses the file's own path. A bind mount of the state directory into the work tree
// is refused too (when the test may mount).
func TestRedTeamHardLinkToStateIsRefused(t *testing.T) {
	ws := kerneltest.GitRepo(t)
	cfg := corpusConfig(ws)
	cfg.Policy = allowAll
	k, err := assemble.Kernel(cfg)
	require.NoError(t, err)
	state := k.State()
	require.NoError(t, os.WriteFile(state.Path("token.key"), []byte(kerneltest.TokenKey), 0o600))
	require.NoError(t, k.Close()) // writes the evidence keys
	k, err = assemble.Kernel(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })

	kerneltest.LinksToStateAreRefused(t, k, ws, kerneltest.PathTools{Read: "file:read", Write: "file:write", WriteInput: map[string]any{"content": "x"}})
}
