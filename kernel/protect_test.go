package kernel_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/kerneltest"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// TestNoPathInputReachesStateOrGit: whatever the caller's scopes, no path input (a read
// path, a write path) reaches the evidence log, its keys, the token key or the
// repository's .git — by any spelling. (integration's TestNoToolReachesStateOrGit runs
// the same spellings through the corpus's tools.)
func TestNoPathInputReachesStateOrGit(t *testing.T) {
	ws := kerneltest.GitRepo(t)
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace: ws,
			Policy:    []kernel.Rule{{Tool: "*", Decision: kernel.Allow}},
			Evidence:  kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
		},
		Native: protectRegistry(t),
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	state := k.State()
	assert.Equal(t, filepath.Join(ws, ".git", "cmdbridge"), state.Root)
	require.NoError(t, os.WriteFile(state.Path("token.key"), []byte(kerneltest.TokenKey), 0o600))
	ok := k.Call(context.Background(), kernel.Request{Tool: "test:read", Input: json.RawMessage(`{"path":"a.txt"}`), Caller: kernel.WorkspaceCaller("w")})
	require.True(t, ok.Output.Success, "%+v", ok.Output.Error)
	require.NoError(t, k.Close()) // writes the keys and a checkpoint
	k, err = assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace: ws,
			Policy:    []kernel.Rule{{Tool: "*", Decision: kernel.Allow}},
		},
		Native: protectRegistry(t),
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })

	kerneltest.SpellingsAreRefused(t, k, ws, func(p string) (reads, writes []kerneltest.Attack) {
		r, w := kerneltest.Reader, kerneltest.Writer
		return []kerneltest.Attack{{Caller: r, Tool: "test:read", Input: map[string]any{"path": p}}, {Caller: w, Tool: "test:read", Input: map[string]any{"path": p}}},
			[]kerneltest.Attack{
				{Caller: w, Tool: "test:write", Input: map[string]any{"path": p}},
				{Caller: w, Tool: "test:export", Input: map[string]any{"output": p}},
				{Caller: w, Tool: "test:write-many", Input: map[string]any{"files": []string{"a.txt", p}}},
				{Caller: w, Tool: "test:write-many", Input: map[string]any{"files": []string{p}}},
			}
	}, kerneltest.PathTools{Read: "test:read", Write: "test:write"})
}

// TestRedTeamHardLinkToStateIsRefusedOnEveryPathInput: a hard link inside the work tree to a file of the
// state directory (token.key, signing.key, the receipts), of .git or of the workspace's
// configuration is the same file under another name; the kernel refuses it exactly as
// it refuses the file's own path. A bind mount of the state directory into the work tree
// is refused too (when the test may mount).
func TestRedTeamHardLinkToStateIsRefusedOnEveryPathInput(t *testing.T) {
	ws := kerneltest.GitRepo(t)
	cfg := assemble.Config{
		Config: kernel.Config{
			Workspace: ws,
			Policy:    []kernel.Rule{{Tool: "*", Decision: kernel.Allow}},
			Evidence:  kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
		},
		Native: protectRegistry(t),
	}
	k, err := assemble.Kernel(cfg)
	require.NoError(t, err)
	state := k.State()
	require.NoError(t, os.WriteFile(state.Path("token.key"), []byte(kerneltest.TokenKey), 0o600))
	require.NoError(t, k.Close()) // writes the evidence keys
	k, err = assemble.Kernel(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })

	kerneltest.LinksToStateAreRefused(t, k, ws, kerneltest.PathTools{Read: "test:read", Write: "test:write"})
}

// protectRegistry is the test registry with two more shapes of path input: a write
// path named output (test:export) and a list of write paths (test:write-many).
func protectRegistry(t *testing.T) *native.Registry {
	t.Helper()
	r := testRegistry(t, &probe{})
	require.NoError(t, r.Add(native.New(tool.Spec{Name: "test:export", Description: "write a report",
		Paths: []tool.PathInput{{Property: "output", Access: tool.Write}}},
		func(ctx context.Context, env *tool.Env, in struct {
			Output string `json:"output"`
		}) tool.Output {
			return tool.OK(in)
		})))
	require.NoError(t, r.Add(native.New(tool.Spec{Name: "test:write-many", Description: "write paths",
		Paths: []tool.PathInput{{Property: "files", Access: tool.Write}}},
		func(ctx context.Context, env *tool.Env, in struct {
			Files []string `json:"files"`
		}) tool.Output {
			return tool.OK(in)
		})))
	return r
}
