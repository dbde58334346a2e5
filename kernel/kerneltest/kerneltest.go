// Package kerneltest holds the kernel checks written once and run by the kernel's tests
// on fixture tools and by the integration tests on the corpus's: the refusal of an input
// breaking a rule ([RuleRefused]), and the red-team cases that hold the kernel to its
// protection of cmdbridge's state and the repository's .git. Only tests import it.
package kerneltest

import (
	"context"
	"encoding/json"
	"maps"
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
	"github.com/cmdbridge/cmdbridge/tool"
)

// TokenKey is the token key GitRepo's callers write into a kernel's state before the
// attacks, to find it unchanged after them.
const TokenKey = "0123456789abcdef0123456789abcdef"

// GitRepo is a git work tree with one commit of a.txt ("a\n"), its path free of
// symlinks. It skips the test when git is missing.
func GitRepo(t *testing.T) string {
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

// PathTools are a kernel's tools that read and write the file a "path" input names, and
// what the write takes besides the path.
type PathTools struct {
	Read, Write string
	WriteInput  map[string]any
}

// LinksToStateAreRefused attacks k, serving the work tree ws (GitRepo's) with its
// evidence keys written and TokenKey as its token key, through hard links and a symlink
// in the work tree to the state's files, .git and the workspace's configuration: each is
// refused (SCOPE_DENIED, protected) exactly as the file's own path is, for reading and
// writing, and nothing is written through one; a hard link between two files of the
// work tree is an ordinary file; a bind mount of the state into the work tree is refused
// too (when the test may mount).
func LinksToStateAreRefused(t *testing.T, k *kernel.Kernel, ws string, tools PathTools) {
	t.Helper()
	state := k.State()
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
	read := func(caller kernel.Caller, path string) tool.Output {
		return call(caller, tools.Read, map[string]any{"path": path})
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
		byPath := read(reader, original)
		require.False(t, byPath.Success)
		assert.Equal(t, strings.ReplaceAll(byPath.Error.Message, strconv.Quote(original), strconv.Quote(link)), out.Error.Message)
	}
	for link, target := range links {
		if target == "" {
			target = links["key-copy"]
		}
		t.Run(link, func(t *testing.T) {
			if link != "deep/policy.yaml" { // the configuration may be read, only not written
				same(t, link, target, read(reader, link))
				same(t, link, target, read(writer, link))
			}
			input := maps.Clone(tools.WriteInput)
			if input == nil {
				input = map[string]any{}
			}
			input["path"] = link
			out := call(writer, tools.Write, input)
			require.False(t, out.Success, "%s %s was allowed", tools.Write, link)
			assert.Equal(t, tool.CodeScopeDenied, out.Error.Code)
		})
	}
	data, err := os.ReadFile(state.Path("token.key"))
	require.NoError(t, err)
	assert.Equal(t, TokenKey, string(data), "nothing wrote through a link")

	// A hard link between two files of the work tree is an ordinary file.
	require.NoError(t, os.Link(filepath.Join(ws, "a.txt"), filepath.Join(ws, "a-again.txt")))
	out := read(reader, "a-again.txt")
	assert.True(t, out.Success, "%+v", out.Error)

	t.Run("bind mount", func(t *testing.T) {
		alias := filepath.Join(ws, "alias")
		require.NoError(t, os.Mkdir(alias, 0o755))
		if err := syscall.Mount(state.Root, alias, "", syscall.MS_BIND, ""); err != nil {
			t.Skipf("cannot bind-mount here: %v", err)
		}
		t.Cleanup(func() { _ = syscall.Unmount(alias, syscall.MNT_DETACH) })
		for _, p := range []string{"alias/token.key", "alias/evidence/signing.key", "alias", "alias/not-yet"} {
			out := read(reader, p)
			require.False(t, out.Success, "%s was allowed", p)
			assert.Equal(t, tool.CodeScopeDenied, out.Error.Code, p)
		}
	})
}

// The callers of the attacks: one that may read the workspace, one that may write it.
var (
	Reader = kernel.Caller{Subject: "reader", Read: []string{"."}}
	Writer = kernel.WorkspaceCaller("writer")
)

// Attack is one call of an attack: a caller, a tool and its input.
type Attack struct {
	Caller kernel.Caller
	Tool   string
	Input  map[string]any
}

// SpellingsAreRefused attacks k, serving the work tree ws (GitRepo's) whose state holds
// its evidence keys and a checkpoint and TokenKey as its token key, with every spelling
// of the state's files and of .git (relative, ./, absolute, through .., through a
// symlink to the state, a symlink to a key, a dangling one into the state): each attack
// attacks(p) gives for a spelling p, the reads and the writes, is refused SCOPE_DENIED.
// The workspace's configuration may be read (config.Read) and never written
// (config.Write, with config.WriteInput), and the token key is unchanged after all of it.
func SpellingsAreRefused(t *testing.T, k *kernel.Kernel, ws string, attacks func(p string) (reads, writes []Attack), config PathTools) {
	t.Helper()
	state := k.State()
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

	call := func(a Attack) kernel.Result {
		t.Helper()
		b, err := json.Marshal(a.Input)
		require.NoError(t, err)
		return k.Call(context.Background(), kernel.Request{Tool: a.Tool, Input: b, Caller: a.Caller})
	}
	refused := func(t *testing.T, a Attack) {
		t.Helper()
		res := call(a)
		require.False(t, res.Output.Success, "%s %v was allowed", a.Tool, a.Input)
		assert.Equal(t, tool.CodeScopeDenied, res.Output.Error.Code, "%s %v: %s", a.Tool, a.Input, res.Output.Error.Message)
	}
	for _, p := range spellings {
		reads, writes := attacks(p)
		t.Run("read/"+p, func(t *testing.T) {
			for _, a := range reads {
				refused(t, a)
			}
		})
		t.Run("write/"+p, func(t *testing.T) {
			for _, a := range writes {
				refused(t, a)
			}
		})
	}
	// The workspace's configuration may be read, never written by a tool.
	require.NoError(t, os.MkdirAll(filepath.Join(ws, ".cmdbridge"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".cmdbridge", "config.yaml"), []byte("routes: {}\n"), 0o644))
	input := maps.Clone(config.WriteInput)
	if input == nil {
		input = map[string]any{}
	}
	input["path"] = ".cmdbridge/config.yaml"
	refused(t, Attack{Writer, config.Write, input})
	res := call(Attack{Reader, config.Read, map[string]any{"path": ".cmdbridge/config.yaml"}})
	assert.True(t, res.Output.Success, "%+v", res.Output.Error)

	// Nothing the refusals did changed the state.
	data, err := os.ReadFile(state.Path("token.key"))
	require.NoError(t, err)
	assert.Equal(t, TokenKey, string(data))
}

// RuleRefused asserts that res is the kernel's refusal of an input breaking a rule
// between properties: INVALID_INPUT with message, the properties the rule names and the
// rule itself in the details, before any lane ran.
func RuleRefused(t *testing.T, res kernel.Result, message string, properties []string) {
	t.Helper()
	require.NotNil(t, res.Output.Error)
	assert.Equal(t, tool.CodeInvalidInput, res.Output.Error.Code)
	assert.Equal(t, message, res.Output.Error.Message)
	details, ok := res.Output.Error.Details.(map[string]any)
	require.True(t, ok, "details %T", res.Output.Error.Details)
	assert.Equal(t, properties, details["properties"])
	assert.Equal(t, "/", details["path"])
	rule, ok := details["rule"].(map[string]any)
	require.True(t, ok, "the failing rule is in the details")
	assert.Equal(t, details["reason"], rule["description"])
	assert.Empty(t, res.Receipt.Lane, "refused before any lane ran")
}
