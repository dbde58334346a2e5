package compare

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

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

	// A copy whose index differs from the original's only in stat data (the file's
	// times, after git refreshed them) gets the same answers from git, and reuses them.
	c := filepath.Join(t.TempDir(), "c")
	require.NoError(t, CopyTree(a, c, nil))
	idx := func(dir string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
		require.NoError(t, err)
		return b
	}
	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(c, "a.txt"), later, later))
	git(c, "update-index", "--refresh")
	require.NotEqual(t, idx(a), idx(c), "the refresh rewrote the copy's stat data")
	_, hit = check(c)
	assert.True(t, hit, "a copy whose index differs only in stat data reuses the facts")
	require.NoError(t, os.WriteFile(filepath.Join(c, ".git", "COMMIT_EDITMSG"), []byte("another message\n"), 0o644))
	_, hit = check(c)
	assert.True(t, hit, "the last commit's message file is not part of the key")
	git(c, "update-index", "--chmod=+x", "a.txt")
	_, hit = check(c)
	assert.False(t, hit, "a mode staged in the index is part of the key")

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

// TestIndexContent takes apart the indexes git writes (SHA-1 and SHA-256, version 2 and
// 3) and keeps the file whole where it cannot: what two indexes have in common after
// indexContent is exactly what they have in common but their stat data.
func TestIndexContent(t *testing.T) {
	gitEnv := append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, gitEnv
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
	}
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			git(dir, "init", "-q", "--object-format="+format)
			oidLen := objectIDLen(filepath.Join(dir, ".git"))
			assert.Equal(t, map[string]int{"sha1": 20, "sha256": 32}[format], oidLen)
			for _, name := range []string{"a.txt", "b/c.txt", "d/e/f.txt"} {
				require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644))
			}
			git(dir, "add", "-A")
			read := func() ([]byte, []byte) {
				t.Helper()
				b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
				require.NoError(t, err)
				c, ok := indexContent(b, oidLen)
				require.True(t, ok, "an index git wrote parses")
				return b, c
			}
			raw1, c1 := read()
			assert.Contains(t, string(c1), "d/e/f.txt\x00", "the names are kept")
			later := time.Now().Add(time.Hour)
			require.NoError(t, os.Chtimes(filepath.Join(dir, "a.txt"), later, later))
			git(dir, "update-index", "--refresh")
			raw2, c2 := read()
			assert.NotEqual(t, raw1, raw2)
			assert.Equal(t, c1, c2, "only stat data changed")
			git(dir, "write-tree") // records the cache tree in the index
			raw, c := read()
			assert.NotEqual(t, raw2, raw)
			assert.Equal(t, c2, c, "the cache tree is left out")

			// Version 3: an intent-to-add entry carries extended flags.
			require.NoError(t, os.WriteFile(filepath.Join(dir, "n.txt"), []byte("n"), 0o644))
			git(dir, "add", "-N", "n.txt")
			raw3, c3 := read()
			assert.Equal(t, uint32(3), uint32(raw3[7]), "git wrote version 3")
			assert.NotEqual(t, c2, c3)
			git(dir, "update-index", "--chmod=+x", "a.txt")
			_, c4 := read()
			assert.NotEqual(t, c3, c4, "a mode change is content")

			// What it does not take apart: version 4, an untracked cache, a cut file.
			git(dir, "update-index", "--index-version", "4")
			b, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
			require.NoError(t, err)
			_, ok := indexContent(b, oidLen)
			assert.False(t, ok, "version 4")
			git(dir, "update-index", "--index-version", "2", "--untracked-cache")
			git(dir, "status", "--porcelain")
			b, err = os.ReadFile(filepath.Join(dir, ".git", "index"))
			require.NoError(t, err)
			_, ok = indexContent(b, oidLen)
			assert.False(t, ok, "an untracked cache holds stat data")
			_, ok = indexContent(raw1[:len(raw1)/2], oidLen)
			assert.False(t, ok, "a cut index")
		})
	}
}
