package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/gittest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// processEnv is a context carrying the test process's environment, as the legacy
// convention attaches it (tests may read the process).
func processEnv() context.Context {
	return WithEnv(context.Background(), os.LookupEnv, os.Environ)
}

func isolateGit(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
}

func TestCommitPathsCommitsOnlyGivenPaths(t *testing.T) {
	isolateGit(t)
	ctx := processEnv()
	dir := realTemp(t)
	gittest.Init(t, dir)
	writeFile(t, filepath.Join(dir, "tracked.txt"), "v1\n")
	gittest.Run(t, dir, "add", "tracked.txt")
	gittest.Run(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "add tracked")

	writeFile(t, filepath.Join(dir, "a.yaml"), "a\n")
	writeFile(t, filepath.Join(dir, "other.txt"), "leave me\n")
	require.NoError(t, os.Remove(filepath.Join(dir, "tracked.txt")))
	g := &Git{Dir: dir, Now: "2026-03-02T18:37:08.384Z"}
	assert.True(t, InWorkTree(ctx, dir))
	assert.False(t, InWorkTree(ctx, t.TempDir()))

	c, err := g.CommitPaths(ctx, "docs: create wu-1", []string{"a.yaml", "tracked.txt", "never-existed.txt", "a.yaml"})
	require.NoError(t, err)
	require.NotNil(t, c)
	assert.Equal(t, "docs: create wu-1", c.Subject)
	assert.Len(t, c.SHA, 40)
	files := gittest.Run(t, dir, "show", "--name-status", "--format=%an <%ae> %ad", "--date=iso-strict", "HEAD")
	assert.Contains(t, files, "delivery <delivery@localhost> 2026-03-02T18:37:08+00:00")
	assert.Contains(t, files, "A\ta.yaml")
	assert.Contains(t, files, "D\ttracked.txt")
	assert.NotContains(t, files, "other.txt")
	assert.Contains(t, gittest.Run(t, dir, "status", "--porcelain"), "?? other.txt")

	// Same content again: nothing to commit.
	c, err = g.CommitPaths(ctx, "again", []string{"a.yaml"})
	require.NoError(t, err)
	assert.Nil(t, c)

	branch, err := g.CurrentBranch(ctx)
	require.NoError(t, err)
	assert.Equal(t, "main", branch)
}

func TestPushFailureIsWarning(t *testing.T) {
	isolateGit(t)
	ctx := processEnv()
	dir := realTemp(t)
	gittest.Init(t, dir)
	g := &Git{Dir: dir}
	pushed, warn := g.Push(ctx)
	assert.False(t, pushed)
	assert.Empty(t, warn, "no origin: no push attempted")
	gittest.Run(t, dir, "remote", "add", "origin", filepath.Join(dir, "does-not-exist"))
	pushed, warn = g.Push(ctx)
	assert.False(t, pushed)
	assert.True(t, strings.HasPrefix(warn, "push failed: "), warn)

	bare := realTemp(t)
	gittest.Run(t, bare, "init", "-q", "--bare")
	gittest.Run(t, dir, "remote", "set-url", "origin", bare)
	pushed, warn = g.Push(ctx)
	assert.True(t, pushed, warn)
}

func TestWorktreesBranchesMerge(t *testing.T) {
	isolateGit(t)
	ctx := processEnv()
	dir := realTemp(t)
	gittest.Init(t, dir)
	g := &Git{Dir: dir}
	require.NoError(t, g.WorktreeAdd(ctx, "worktrees/core-api-wu-1", "lane/core-api/wu-1", true, "HEAD"))
	assert.True(t, g.BranchExists(ctx, "lane/core-api/wu-1"))
	assert.False(t, g.BranchExists(ctx, "nope"))
	list, err := g.WorktreeList(ctx)
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, dir, list[0].Path)
	assert.Equal(t, "main", list[0].Branch)
	assert.Equal(t, "lane/core-api/wu-1", list[1].Branch)

	wt := &Git{Dir: filepath.Join(dir, "worktrees/core-api-wu-1")}
	dirty, err := wt.Dirty(ctx)
	require.NoError(t, err)
	assert.False(t, dirty)
	writeFile(t, filepath.Join(wt.Dir, "f.txt"), "x\n")
	dirty, _ = wt.Dirty(ctx)
	assert.True(t, dirty)
	_, err = wt.CommitPaths(ctx, "work", []string{"f.txt"})
	require.NoError(t, err)

	require.NoError(t, g.Merge(ctx, "lane/core-api/wu-1"))
	assert.FileExists(t, filepath.Join(dir, "f.txt"))
	require.NoError(t, g.WorktreeRemove(ctx, "worktrees/core-api-wu-1", false))
	require.NoError(t, g.BranchDelete(ctx, "lane/core-api/wu-1", false))
	err = g.BranchDelete(ctx, "lane/core-api/wu-1", false)
	assert.Equal(t, tool.CodeGitError, codeOf(err))

	// A conflicting merge is aborted and reported.
	gittest.Run(t, dir, "checkout", "-q", "-b", "side")
	writeFile(t, filepath.Join(dir, "f.txt"), "side\n")
	_, err = g.CommitPaths(ctx, "side", []string{"f.txt"})
	require.NoError(t, err)
	gittest.Run(t, dir, "checkout", "-q", "main")
	writeFile(t, filepath.Join(dir, "f.txt"), "main\n")
	_, err = g.CommitPaths(ctx, "main", []string{"f.txt"})
	require.NoError(t, err)
	err = g.Merge(ctx, "side")
	assert.Equal(t, tool.CodeMergeConflict, codeOf(err))
	dirty, _ = g.Dirty(ctx)
	assert.False(t, dirty, "merge aborted")
}

// TestRedTeamGitReadsNamesAsNames: a branch, base or worktree path that begins with "-"
// (a configured lane-branch prefix, a caller's base) reaches git as a name: git says
// it knows no such name, where without --end-of-options it would take an option (a
// worktree of "--detach" is created detached, and so on).
func TestRedTeamGitReadsNamesAsNames(t *testing.T) {
	isolateGit(t)
	ctx := processEnv()
	dir := realTemp(t)
	gittest.Init(t, dir)
	// `git branch --edit-description main` starts the editor: this one leaves a mark.
	editorRan := filepath.Join(t.TempDir(), "editor-ran")
	t.Setenv("GIT_EDITOR", "touch "+editorRan)
	g := &Git{Dir: dir}
	for _, tc := range []struct {
		name string
		run  func() error
		want string
	}{
		{"worktree to remove", func() error { return g.WorktreeRemove(ctx, "--force", false) }, "'--force' is not a working tree"},
		{"branch to delete", func() error { return g.BranchDelete(ctx, "--list", false) }, "branch '--list' not found"},
		{"branch to merge", func() error { return g.Merge(ctx, "--quit") }, "--quit - not something we can merge"},
		// git worktree add hands these to a `git branch` of its own: refused first.
		{"checked-out branch", func() error { return g.WorktreeAdd(ctx, "worktrees/a", "--detach", false, "") }, `"--detach" is no branch or commit name`},
		{"base of a new branch", func() error { return g.WorktreeAdd(ctx, "worktrees/b", "lane/b", true, "--detach") }, `"--detach" is no branch or commit name`},
		{"new branch", func() error { return g.WorktreeAdd(ctx, "worktrees/c", "--edit-description", true, "main") }, `"--edit-description" is no branch or commit name`},
	} {
		err := tc.run()
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
	}
	list, err := g.WorktreeList(ctx)
	require.NoError(t, err)
	assert.Len(t, list, 1, "no worktree was added")
	assert.NoFileExists(t, editorRan, "git never started its editor")

	// A worktree path is a path, whatever it begins with (without --end-of-options,
	// --lock would lock a worktree made at HEAD/).
	require.NoError(t, g.WorktreeAdd(ctx, "--lock", "lane/p", true, "HEAD"))
	list, err = g.WorktreeList(ctx)
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, filepath.Join(dir, "--lock"), list[1].Path)
	assert.False(t, list[1].Locked)
	require.NoError(t, g.WorktreeRemove(ctx, "--lock", false))
}

func TestParseWorktrees(t *testing.T) {
	out := "worktree /r\nHEAD abc\nbranch refs/heads/main\n\nworktree /r/w\nHEAD def\ndetached\nlocked reason\nprunable gone\n\n"
	assert.Equal(t, []Worktree{
		{Path: "/r", Head: "abc", Branch: "main"},
		{Path: "/r/w", Head: "def", Detached: true, Locked: true, Prunable: true},
	}, ParseWorktrees(out))
}
