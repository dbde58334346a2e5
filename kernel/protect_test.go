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
	require.NoError(t, os.WriteFile(state.Path("token.key"), []byte("0123456789abcdef0123456789abcdef"), 0o600))
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

	require.NoError(t, os.Symlink(filepath.Join(".git", "cmdbridge"), filepath.Join(ws, "state-link")))
	require.NoError(t, os.Symlink(filepath.Join(".git", "cmdbridge", "evidence", "signing.key"), filepath.Join(ws, "key-link")))
	require.NoError(t, os.Symlink(filepath.Join(".git", "cmdbridge", "nothing-yet"), filepath.Join(ws, "dangling-link")))
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "sub"), 0o755))
	targets := []string{
		"evidence/signing.key", "evidence/verifier.key", "evidence/receipts.jsonl",
		"evidence/checkpoints.jsonl", "token.key",
	}
	for _, rel := range targets {
		_, err := os.Stat(filepath.Join(state.Root, rel))
		require.NoError(t, err, "the fixture must hold %s", rel)
	}
	var spellings []string
	for _, rel := range targets {
		spellings = append(spellings,
			filepath.Join(".git", "cmdbridge", rel),
			"./"+filepath.Join(".git", "cmdbridge", rel),
			filepath.Join(ws, ".git", "cmdbridge", rel),
			filepath.Join(".git", "..", ".git", "cmdbridge", rel),
			filepath.Join("sub", "..", ".git", "cmdbridge", rel),
			filepath.Join("state-link", rel),
		)
	}
	spellings = append(spellings, "key-link", "dangling-link", ".git/config", ".git/HEAD", ".git", filepath.Join(ws, ".git", "index"))

	reader := kernel.Caller{Subject: "reader", Read: []string{"."}}
	writer := kernel.WorkspaceCaller("writer")
	refused := func(t *testing.T, caller kernel.Caller, name string, input map[string]any) {
		t.Helper()
		b, err := json.Marshal(input)
		require.NoError(t, err)
		res := k.Call(context.Background(), kernel.Request{Tool: name, Input: b, Caller: caller})
		require.False(t, res.Output.Success, "%s %s was allowed", name, b)
		assert.Equal(t, tool.CodeScopeDenied, res.Output.Error.Code, "%s %s: %s", name, b, res.Output.Error.Message)
	}
	for _, p := range spellings {
		t.Run("read/"+p, func(t *testing.T) {
			refused(t, reader, "test:read", map[string]any{"path": p})
			refused(t, writer, "test:read", map[string]any{"path": p})
		})
		t.Run("write/"+p, func(t *testing.T) {
			refused(t, writer, "test:write", map[string]any{"path": p})
			refused(t, writer, "test:export", map[string]any{"output": p})
			refused(t, writer, "test:write-many", map[string]any{"files": []string{"a.txt", p}})
			refused(t, writer, "test:write-many", map[string]any{"files": []string{p}})
		})
	}
	// The workspace's configuration may be read, never written by a tool.
	require.NoError(t, os.MkdirAll(filepath.Join(ws, ".cmdbridge"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".cmdbridge", "config.yaml"), []byte("routes: {}\n"), 0o644))
	refused(t, writer, "test:write", map[string]any{"path": ".cmdbridge/config.yaml"})
	res := k.Call(context.Background(), kernel.Request{Tool: "test:read", Input: json.RawMessage(`{"path":".cmdbridge/config.yaml"}`), Caller: reader})
	assert.True(t, res.Output.Success, "%+v", res.Output.Error)

	// Nothing the refusals did changed the state, and git status stays clean of it.
	data, err := os.ReadFile(state.Path("token.key"))
	require.NoError(t, err)
	assert.Equal(t, "0123456789abcdef0123456789abcdef", string(data))
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
