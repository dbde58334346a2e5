// Package kerneltest holds the red-team cases that hold the kernel to its protection of
// cmdbridge's state and the repository's .git, written once and run by the kernel's
// tests on fixture tools and by the integration tests on the corpus's. Only tests import
// it.
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
