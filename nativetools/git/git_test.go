package git_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/nativetools/git"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestStatusReportsEntries(t *testing.T) {
	ws := nt.Workspace(t)
	nt.Write(t, ws, "new.txt", "n\n")
	nt.Write(t, ws, "workspace.yaml", "id: acme\n")
	nt.Write(t, ws, "sub/inner.txt", "i\n")
	nt.Git(t, ws, "add", "new.txt")
	d := nt.Data(t, nt.Call(t, ws, "git:status", `{}`))
	assert.Equal(t, "main", d["branch"])
	assert.Equal(t, false, d["detached"])
	assert.Nil(t, d["upstream"])
	assert.Nil(t, d["ahead"])
	assert.Equal(t, false, d["clean"])
	assert.ElementsMatch(t, []any{
		map[string]any{"path": "new.txt", "orig_path": nil, "index": "A", "worktree": " "},
		map[string]any{"path": "workspace.yaml", "orig_path": nil, "index": " ", "worktree": "M"},
		map[string]any{"path": "sub/", "orig_path": nil, "index": "?", "worktree": "?"},
	}, d["entries"])

	d = nt.Data(t, nt.Call(t, ws, "git:status", `{"path":"sub"}`))
	assert.Len(t, d["entries"], 1)
	assert.Equal(t, tool.CodePathOutsideWorkspace, nt.Code(t, nt.Call(t, ws, "git:status", `{"path":"../x"}`)))
}

func TestStatusRenameAndClean(t *testing.T) {
	ws := nt.Workspace(t)
	d := nt.Data(t, nt.Call(t, ws, "git:status", `{}`))
	assert.Equal(t, true, d["clean"])
	assert.Equal(t, []any{}, d["entries"])
	nt.Git(t, ws, "mv", "workspace.yaml", "renamed.yaml")
	d = nt.Data(t, nt.Call(t, ws, "git:status", `{}`))
	require.Len(t, d["entries"], 1)
	e := d["entries"].([]any)[0].(map[string]any)
	assert.Equal(t, "renamed.yaml", e["path"])
	assert.Equal(t, "workspace.yaml", e["orig_path"])
	assert.Equal(t, "R", e["index"])
}

func TestStatusNeverInitialisesARepository(t *testing.T) {
	dir := t.TempDir()
	out := nt.Call(t, dir, "git:status", `{}`)
	assert.Equal(t, tool.CodeGitError, nt.Code(t, out))
	_, err := os.Stat(filepath.Join(dir, ".git"))
	assert.True(t, os.IsNotExist(err), "git:status must not create .git")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "a read tool writes nothing")
}

func TestAddStagesAndConfines(t *testing.T) {
	ws := nt.Workspace(t)
	nt.Write(t, ws, "a.txt", "a\n")
	nt.Write(t, ws, "b.txt", "b\n")
	d := nt.Data(t, nt.Call(t, ws, "git:add", `{"files":["a.txt"]}`))
	assert.Equal(t, []any{"a.txt"}, d["staged"])
	assert.Equal(t, "A  a.txt\n?? b.txt", nt.Git(t, ws, "status", "--porcelain"))

	cases := map[string]string{
		`{"files":[]}`:              tool.CodeInvalidInput,
		`{"files":["../outside"]}`:  tool.CodePathOutsideWorkspace,
		`{"files":[".git/config"]}`: tool.CodePathOutsideWorkspace,
		`{"files":["/etc/passwd"]}`: tool.CodePathOutsideWorkspace,
		`{"files":["missing.txt"]}`: tool.CodeGitError,
		`{"files":["a.txt"],"x":1}`: tool.CodeInvalidInput,
	}
	for input, code := range cases {
		assert.Equal(t, code, nt.Code(t, nt.Call(t, ws, "git:add", input)), input)
	}
}

func TestCommit(t *testing.T) {
	ws := nt.Workspace(t)
	nt.Write(t, ws, "a.txt", "a\n")
	nt.Write(t, ws, "b.txt", "b\n")
	nt.Write(t, ws, "c.txt", "c\n")

	assert.Equal(t, tool.CodeInvalidInput, nt.Code(t, nt.Call(t, ws, "git:commit", `{"message":""}`)))
	assert.Equal(t, tool.CodeNothingToCommit, nt.Code(t, nt.Call(t, ws, "git:commit", `{"message":"nothing staged"}`)))

	d := nt.Data(t, nt.Call(t, ws, "git:commit", `{"message":"add a\n\nbody","files":["a.txt"]}`))
	assert.Equal(t, "add a", d["subject"])
	assert.Equal(t, []any{"a.txt"}, d["files"])
	assert.Len(t, d["sha"], 40)
	assert.Equal(t, d["sha"], nt.Git(t, ws, "rev-parse", "HEAD"))
	// §2.4: fallback identity and DELIVERY_NOW dates.
	assert.Equal(t, "delivery <delivery@localhost> 2026-03-02T18:37:08+00:00",
		nt.Git(t, ws, "log", "-1", "--format=%an <%ae> %ad", "--date=iso-strict"))

	// Without files: what is staged, and nothing else.
	nt.Git(t, ws, "add", "b.txt")
	d = nt.Data(t, nt.Call(t, ws, "git:commit", `{"message":"staged b"}`))
	assert.Equal(t, []any{"b.txt"}, d["files"])
	assert.Equal(t, "?? c.txt", nt.Git(t, ws, "status", "--porcelain"))
	assert.Equal(t, tool.CodePathOutsideWorkspace, nt.Code(t, nt.Call(t, ws, "git:commit", `{"message":"x","files":["../y"]}`)))
}

func TestCommitIsReproducible(t *testing.T) {
	var shas []any
	for i := 0; i < 2; i++ {
		ws := nt.Workspace(t)
		// Same tree, same pinned dates; the init commit differs by wall time, so commit
		// on an orphan branch to start from nothing.
		nt.Git(t, ws, "checkout", "-q", "--orphan", "fresh")
		nt.Git(t, ws, "rm", "-q", "--cached", "workspace.yaml")
		nt.Write(t, ws, "a.txt", "a\n")
		d := nt.Data(t, nt.Call(t, ws, "git:commit", `{"message":"same","files":["a.txt"]}`))
		shas = append(shas, d["sha"])
	}
	assert.Equal(t, shas[0], shas[1])
}

func TestCommitAllowEmpty(t *testing.T) {
	ws := nt.Workspace(t)
	before := nt.Git(t, ws, "rev-parse", "HEAD")
	nt.Write(t, ws, "staged.txt", "s\n")
	nt.Git(t, ws, "add", "staged.txt")

	// Files given but unchanged: with allow_empty an empty commit is made, and the staged
	// file stays staged, outside the commit.
	d := nt.Data(t, nt.Call(t, ws, "git:commit", `{"message":"checkpoint","files":["workspace.yaml"],"allow_empty":true}`))
	assert.Equal(t, "checkpoint", d["subject"])
	assert.Equal(t, []any{}, d["files"])
	assert.Equal(t, d["sha"], nt.Git(t, ws, "rev-parse", "HEAD"))
	assert.Equal(t, before, nt.Git(t, ws, "rev-parse", "HEAD~1"))
	assert.Equal(t, "A  staged.txt", nt.Git(t, ws, "status", "--porcelain"))
	// Without allow_empty the same call is refused.
	assert.Equal(t, tool.CodeNothingToCommit, nt.Code(t, nt.Call(t, ws, "git:commit", `{"message":"again","files":["workspace.yaml"]}`)))
}
