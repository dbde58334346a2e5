package compare

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGitFactsCache checks the cache of git facts against git itself: a copy of a
// repository that nothing changed reuses the original's facts (with its own paths), and
// each kind of change the facts depend on is seen, so what a snapshot says is what git
// says.
func TestGitFactsCache(t *testing.T) {
	a := filepath.Join(t.TempDir(), "a")
	gitEnv := append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, gitEnv
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
	}
	put := func(dir, name, content string) {
		t.Helper()
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	require.NoError(t, os.Mkdir(a, 0o755))
	put(a, "a.txt", "a\n")
	git(a, "init", "-q", "-b", "main")
	git(a, "add", "-A")
	git(a, "commit", "-q", "-m", "first")
	git(a, "worktree", "add", "-q", "-b", "side", filepath.Join(a, "wt", "side"))

	// check snapshots dir and compares its facts with git's own answer; hit says whether
	// the cache answered.
	check := func(dir string) (Tree, bool) {
		t.Helper()
		before := factsCache.hitCount()
		tr, err := Snapshot(dir)
		require.NoError(t, err)
		fresh := askGit(dir, nil)
		for _, f := range gitFacts {
			assert.Equal(t, string(fresh[f.name]), string(tr[".git:"+f.name].Content), "%s: fact %s", dir, f.name)
		}
		// The facts read from the files without git are git's own, byte for byte.
		read, err := readGitFacts(dir)
		require.NoError(t, err, "%s: facts read from .git", dir)
		assert.Len(t, read, 3)
		for name, b := range read {
			assert.Equal(t, string(fresh[name]), string(b), "%s: fact %s read from .git", dir, name)
		}
		return tr, factsCache.hitCount() > before
	}
	ta, _ := check(a)
	assert.Contains(t, string(ta[".git:worktrees"].Content), filepath.Join(a, "wt", "side"))

	b := filepath.Join(t.TempDir(), "b")
	require.NoError(t, CopyTree(a, b, nil))
	tb, hit := check(b)
	assert.True(t, hit, "an unchanged copy reuses the original's facts")
	assert.Contains(t, string(tb[".git:worktrees"].Content), filepath.Join(b, "wt", "side"), "with its own paths")
	assert.NotContains(t, string(tb[".git:worktrees"].Content), a)

	steps := []struct {
		name   string
		change func()
	}{
		{"a tracked file edited", func() { put(b, "a.txt", "changed\n") }},
		{"an untracked file", func() { put(b, "new/untracked.txt", "x\n") }},
		{"a file in cmdbridge's state directory", func() { put(b, ".cmdbridge/parity/last.json", "{}\n") }},
		{"a staged change", func() { git(b, "add", "-A") }},
		{"a commit", func() { git(b, "commit", "-q", "-m", "second") }},
		{"a branch", func() { git(b, "branch", "other") }},
		{"a checkout", func() { git(b, "checkout", "-q", "other") }},
		{"a linked worktree removed", func() { git(b, "worktree", "remove", "--force", filepath.Join(b, "wt", "side")) }},
		{"a nested repository", func() { put(b, "nested/x.txt", "x\n"); git(filepath.Join(b, "nested"), "init", "-q") }},
		// What the facts read from .git itself (readGitFacts) must follow as git does.
		{"a branch below a directory", func() { git(b, "branch", "lane/core/wu-1") }},
		{"a branch after packing the refs", func() { git(b, "pack-refs", "--all"); git(b, "branch", "after") }},
		{"a tag named as a branch", func() { git(b, "tag", "after") }},
		{"a remote-tracking ref named as the checked-out branch", func() { git(b, "update-ref", "refs/remotes/other", "HEAD") }},
		{"a tag named as the checked-out branch", func() { git(b, "tag", "other") }},
		{"a detached HEAD", func() { git(b, "checkout", "-q", "--detach") }},
		{"a linked worktree on a new branch", func() { git(b, "worktree", "add", "-q", "-b", "w2", filepath.Join(b, "wt", "w2")) }},
		{"a second linked worktree, detached", func() { git(b, "worktree", "add", "-q", "--detach", filepath.Join(b, "wt", "a1")) }},
		{"an unborn branch checked out", func() { git(b, "checkout", "-q", "--orphan", "fresh") }},
	}
	prev := tb
	for _, s := range steps {
		s.change()
		tr, hit := check(b)
		assert.False(t, hit, "%s: the facts were not taken from the cache", s.name)
		changed := false
		for _, f := range gitFacts {
			changed = changed || string(prev[".git:"+f.name].Content) != string(tr[".git:"+f.name].Content)
		}
		assert.True(t, changed, "%s: some fact changed", s.name)
		prev = tr
	}
}

// readGitFacts reads only regular files: a FIFO or a link a lane left in .git goes to
// git, and a FIFO never blocks the read.
func TestReadGitFactsRefusesWhatIsNotARegularFile(t *testing.T) {
	for _, name := range []string{"HEAD", "packed-refs", "worktrees/x/gitdir"} {
		dir := t.TempDir()
		gitDir := filepath.Join(dir, ".git")
		require.NoError(t, os.MkdirAll(filepath.Join(gitDir, "refs", "heads"), 0o755))
		require.NoError(t, os.MkdirAll(filepath.Join(gitDir, "worktrees", "x"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(gitDir, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(gitDir, "worktrees", "x", "HEAD"), []byte("ref: refs/heads/x\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(gitDir, "worktrees", "x", "gitdir"), []byte("/elsewhere/x/.git\n"), 0o644))
		facts, err := readGitFacts(dir)
		require.NoError(t, err, "with regular files")
		assert.Equal(t, "main\n", string(facts["HEAD"]))
		p := filepath.Join(gitDir, filepath.FromSlash(name))
		_ = os.Remove(p)
		require.NoError(t, syscall.Mkfifo(p, 0o644))
		_, err = readGitFacts(dir)
		assert.ErrorIs(t, err, errAskGit, "%s as a FIFO", name)
	}
}
