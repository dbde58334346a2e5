package kernel_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// gitRepo makes ws a repository with one commit.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git on the host")
	}
	ws, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(ws, "a.txt"), []byte("a\n"), 0o644))
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "a.txt"}, {"commit", "-q", "-m", "a"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	return ws
}

// TestNoPathInputReachesStateOrGit: whatever the caller's scopes, no path input (a read
// path, a write path) reaches the evidence log, its keys, the token key or the
// repository's .git — by any spelling. (integration's TestNoToolReachesStateOrGit runs
// the same spellings through the corpus's tools.)
func TestNoPathInputReachesStateOrGit(t *testing.T) {
	ws := gitRepo(t)
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
	ws := gitRepo(t)
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
	require.NoError(t, os.WriteFile(state.Path("token.key"), []byte("0123456789abcdef0123456789abcdef"), 0o600))
	require.NoError(t, k.Close()) // writes the evidence keys
	k, err = assemble.Kernel(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })

	require.NoError(t, os.MkdirAll(filepath.Join(ws, ".cmdbridge"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".cmdbridge", "config.yaml"), []byte("routes: {}\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "deep", "er"), 0o755))
	links := map[string]string{ // link in the work tree → the protected file
		"key-copy":            state.Path("token.key"),
		"deep/er/signing":     state.Path("evidence/signing.key"),
		"verifier":            state.Path("evidence/verifier.key"),
		"receipts":            state.Path("evidence/receipts.jsonl"),
		"git-config":          filepath.Join(ws, ".git", "config"),
		"deep/policy.yaml":    filepath.Join(ws, ".cmdbridge", "config.yaml"),
		"via-symlink-to-link": "", // a symlink to key-copy, made below
	}
	for link, target := range links {
		if target == "" {
			continue
		}
		require.NoError(t, os.Link(target, filepath.Join(ws, link)), "link %s", link)
	}
	require.NoError(t, os.Symlink("key-copy", filepath.Join(ws, "via-symlink-to-link")))

	call := func(caller kernel.Caller, name string, input map[string]any) tool.Output {
		t.Helper()
		b, err := json.Marshal(input)
		require.NoError(t, err)
		return k.Call(context.Background(), kernel.Request{Tool: name, Input: b, Caller: caller}).Output
	}
	reader := kernel.Caller{Subject: "reader", Read: []string{"."}}
	writer := kernel.WorkspaceCaller("writer")
	same := func(t *testing.T, link, original string, out tool.Output) {
		t.Helper()
		require.False(t, out.Success, "%s was allowed: %v", link, out.Data)
		assert.Equal(t, tool.CodeScopeDenied, out.Error.Code)
		details, _ := out.Error.Details.(map[string]any)
		assert.Equal(t, true, details["protected"], "%s: %s", link, out.Error.Message)
		// The same refusal as the original's path, but for the name given.
		byPath := call(reader, "test:read", map[string]any{"path": original})
		require.False(t, byPath.Success)
		assert.Equal(t, strings.ReplaceAll(byPath.Error.Message, strconv.Quote(original), strconv.Quote(link)), out.Error.Message)
	}
	for link, target := range links {
		if target == "" {
			target = links["key-copy"]
		}
		t.Run(link, func(t *testing.T) {
			if link != "deep/policy.yaml" { // the configuration may be read, only not written
				same(t, link, target, call(reader, "test:read", map[string]any{"path": link}))
				same(t, link, target, call(writer, "test:read", map[string]any{"path": link}))
			}
			out := call(writer, "test:write", map[string]any{"path": link})
			require.False(t, out.Success, "test:write %s was allowed", link)
			assert.Equal(t, tool.CodeScopeDenied, out.Error.Code)
		})
	}
	data, err := os.ReadFile(state.Path("token.key"))
	require.NoError(t, err)
	assert.Equal(t, "0123456789abcdef0123456789abcdef", string(data), "nothing wrote through a link")

	// A hard link between two files of the work tree is an ordinary file.
	require.NoError(t, os.Link(filepath.Join(ws, "a.txt"), filepath.Join(ws, "a-again.txt")))
	out := call(reader, "test:read", map[string]any{"path": "a-again.txt"})
	assert.True(t, out.Success, "%+v", out.Error)

	t.Run("bind mount", func(t *testing.T) {
		alias := filepath.Join(ws, "alias")
		require.NoError(t, os.Mkdir(alias, 0o755))
		if err := syscall.Mount(state.Root, alias, "", syscall.MS_BIND, ""); err != nil {
			t.Skipf("cannot bind-mount here: %v", err)
		}
		t.Cleanup(func() { _ = syscall.Unmount(alias, syscall.MNT_DETACH) })
		for _, p := range []string{"alias/token.key", "alias/evidence/signing.key", "alias", "alias/not-yet"} {
			out := call(reader, "test:read", map[string]any{"path": p})
			require.False(t, out.Success, "%s was allowed", p)
			assert.Equal(t, tool.CodeScopeDenied, out.Error.Code, p)
		}
	})
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
