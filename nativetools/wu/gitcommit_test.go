package wu_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/nativetools"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestCommitsInProcessOrSaysWhyNot: a native writer commits without the git binary and
// notes "in-process" for the receipt; in a repository with a hook that git commit runs
// even with --no-verify (post-commit), it hands the commit to git, which runs the hook,
// and notes why. Both commits are the branch's, fsck finds nothing, the tree is clean.
func TestCommitsInProcessOrSaysWhyNot(t *testing.T) {
	ws := nt.Workspace(t)
	id := create(t, ws)
	claim(t, ws, id)
	call := func(name, input string) (tool.Output, map[string]string) {
		notes := map[string]string{}
		tl, ok := nativetools.Default.Lookup(name)
		require.True(t, ok)
		env := &tool.Env{Dir: ws, LookupEnv: tool.EnvFromMap(nt.Env), Stdin: strings.NewReader(""), Log: io.Discard,
			OnNote: func(k, v string) { notes[k] = v }}
		return tl.Call(context.Background(), env, json.RawMessage(input)), notes
	}
	sha := func(out tool.Output) string {
		require.True(t, out.Success, "%+v", out.Error)
		b, err := json.Marshal(out.Data)
		require.NoError(t, err)
		var d struct{ Commit struct{ SHA string } }
		require.NoError(t, json.Unmarshal(b, &d))
		return d.Commit.SHA
	}

	out, notes := call("wu:block", `{"id":"`+id+`","reason":"waiting"}`)
	assert.Equal(t, map[string]string{"git_commit": "in-process"}, notes)
	assert.Equal(t, nt.Git(t, ws, "rev-parse", "HEAD"), sha(out))
	assert.Equal(t, "wu(wu-1): block", nt.Git(t, ws, "log", "-1", "--format=%s"))
	assert.Contains(t, nt.Git(t, ws, "reflog", "-1"), "commit: wu(wu-1): block")

	hook := filepath.Join(ws, ".git", "hooks", "post-commit")
	require.NoError(t, os.MkdirAll(filepath.Dir(hook), 0o755))
	require.NoError(t, os.WriteFile(hook, []byte("#!/bin/sh\ngit rev-parse HEAD > \"$(git rev-parse --git-dir)/hook-ran\"\n"), 0o755))
	out, notes = call("wu:unblock", `{"id":"`+id+`","reason":"ready"}`)
	assert.Equal(t, map[string]string{"git_commit": "git: the post-commit hook"}, notes)
	ran, err := os.ReadFile(filepath.Join(ws, ".git", "hook-ran"))
	require.NoError(t, err, "git ran the hook")
	assert.Equal(t, sha(out), strings.TrimSpace(string(ran)))
	assert.Equal(t, "wu(wu-1): unblock", nt.Git(t, ws, "log", "-1", "--format=%s"))

	assert.Empty(t, nt.Git(t, ws, "fsck", "--full", "--strict", "--no-progress", "--no-dangling"))
	assert.Empty(t, nt.Git(t, ws, "status", "--porcelain", "--untracked-files=no"))
}
