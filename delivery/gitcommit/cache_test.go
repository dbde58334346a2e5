package gitcommit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery/gitcommit"
)

// TestCacheAcrossGitsChanges commits through one Cache while git changes the index
// between the commits (a staged file, a commit of its own, a reset), in one copy, and
// makes the same changes with git alone in another: after each step (or run of
// steps) git must read the same state from both. A cache that answered with an index git had since replaced
// would lose git's staged entry or bring back one it removed.
func TestCacheAcrossGitsChanges(t *testing.T) {
	base := newRepo(t)
	a, b := twin(t, base), twin(t, base)
	var cache gitcommit.Cache
	steps := []struct {
		name string
		git  func(t *testing.T, dir string) // both copies: what git does between commits
		file string
		// later: the state is compared after a later step only (git reading it, status
		// and write-tree, refreshes the index, and the next commit would not find the
		// one it wrote in the cache).
		later bool
	}{
		{name: "first commit", file: "docs/tasks/wu/WU-1.yaml", later: true},
		{name: "again, the index as the cache left it", file: "docs/tasks/wu/WU-1.yaml", later: true},
		// From the cache, other paths: the cache-tree must stay invalid along the paths
		// the commits before changed (git's write-tree and commit trust a valid one).
		{name: "another file in the same directory", file: "docs/tasks/wu/WU-2.yaml", later: true},
		{name: "a file at the top", file: "README.md"},
		{name: "git staged another file", git: func(t *testing.T, dir string) {
			write(t, dir, "a-b/x", "staged by git\n")
			git(t, dir, "add", "a-b/x")
		}, file: "docs/tasks/wu/WU-2.yaml"},
		{name: "git committed", git: func(t *testing.T, dir string) {
			git(t, dir, "-c", "user.name=g", "-c", "user.email=g@e", "commit", "-q", "-m", "by git")
		}, file: "README.md"},
		{name: "git reset the index to a new file's absence", git: func(t *testing.T, dir string) {
			write(t, dir, "new.txt", "n\n")
			git(t, dir, "add", "new.txt")
			git(t, dir, "reset", "-q", "new.txt")
		}, file: "docs/tasks/wu/WU-1.yaml"},
	}
	for i, s := range steps {
		if s.git != nil {
			s.git(t, a)
			s.git(t, b)
		}
		content := "step " + s.name + "\n"
		write(t, a, s.file, content)
		write(t, b, s.file, content)
		require.True(t, gitCommit(t, a, s.name, s.file), s.name)
		require.True(t, inProcessWith(t, &cache, b, s.name, s.file), s.name)
		if !s.later {
			require.Equal(t, state(t, a), state(t, b), "step %d: %s", i, s.name)
		}
	}
	assert.Empty(t, git(t, b, "fsck", "--full", "--strict", "--no-progress", "--no-dangling"))
}

// TestCacheSkipsTheRead shows the cache at work: an index file replaced by one of the
// same size and checksum but another body (which git, and a read, would refuse as a
// checksum mismatch) is taken from the cache unread; without the cache the commit
// refuses it.
func TestCacheSkipsTheRead(t *testing.T) {
	dir := newRepo(t)
	var cache gitcommit.Cache
	write(t, dir, "README.md", "one\n")
	require.True(t, inProcessWith(t, &cache, dir, "one", "README.md"))

	path := filepath.Join(dir, ".git", "index")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	forged := append([]byte(nil), b...)
	forged[12] ^= 0xff // the first entry's ctime: the body no longer matches the checksum
	require.NoError(t, os.WriteFile(path, forged, 0o644))

	write(t, dir, "README.md", "two\n")
	r, err := gitcommit.Open(dir, gitEnv(t.TempDir()))
	require.NoError(t, err)
	_, err = r.Prepare(gitcommit.Request{Paths: []string{"README.md"}, Message: "two"})
	reason, unsupported := gitcommit.IsUnsupported(err)
	require.True(t, unsupported, "without the cache the index is read: %v", err)
	assert.Contains(t, reason, "checksum mismatch")

	assert.True(t, inProcessWith(t, &cache, dir, "two", "README.md"), "with the cache the stamp matches and nothing is read")
}

// TestCacheLargeFilesAsGit commits an append-only log and a large directory (large
// enough for the objects to be deflated in pieces) through one Cache, step by step,
// beside git making the same commits: git must read the same state from both, fsck
// must accept every object, and git must read the pieced objects back byte for byte.
func TestCacheLargeFilesAsGit(t *testing.T) {
	t.Parallel()
	const longName = "wu/WU-%04d-a-work-unit-with-a-long-descriptive-slug.yaml"
	base := newRepo(t)
	a, b := twin(t, base), twin(t, base)
	var cache gitcommit.Cache
	var log strings.Builder
	const files = 500 // with long names: a tree of 40 KB, past piecedMin
	for step := range 3 {
		for i := 0; log.Len() < (step+1)*50_000; i++ {
			fmt.Fprintf(&log, `{"type":"claim","wuId":"WU-%d","step":%d}`+"\n", i, step)
		}
		paths := []string{"state/events.jsonl"}
		for _, dir := range []string{a, b} {
			write(t, dir, "state/events.jsonl", log.String())
			// A directory whose tree grows past the piece size, one file changed per step.
			for i := range files {
				if step == 0 || i == step {
					write(t, dir, fmt.Sprintf(longName, i), fmt.Sprintf("id: WU-%d\nstep: %d\n", i, step))
				}
			}
		}
		if step == 0 {
			for i := range files {
				paths = append(paths, fmt.Sprintf(longName, i))
			}
		} else {
			paths = append(paths, fmt.Sprintf(longName, step))
		}
		require.True(t, gitCommit(t, a, fmt.Sprint("step ", step), paths...))
		require.True(t, inProcessWith(t, &cache, b, fmt.Sprint("step ", step), paths...))
		require.Equal(t, state(t, a), state(t, b), "step %d", step)
		assert.Equal(t, log.String(), git(t, b, "cat-file", "-p", "HEAD:state/events.jsonl"))
	}
	assert.Empty(t, git(t, b, "fsck", "--full", "--strict", "--no-progress", "--no-dangling"))
}
