package delivery

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/internal/gittest"
)

// beginJournal begins a journal on root, failing the test when it cannot.
func beginJournal(t *testing.T, root string) *storage.Journal {
	t.Helper()
	j, err := storage.BeginJournal(context.Background(), root, nil)
	require.NoError(t, err)
	return j
}

func contentOrAbsent(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return "<absent>"
	}
	require.NoError(t, err)
	return string(b)
}

// TestJournalUnstagesAfterFailedCommit: paths the run staged get their index entries
// back from HEAD when the run fails after `git add`; a commit that succeeded is a durable
// point the rollback does not cross.
func TestJournalUnstagesAfterFailedCommit(t *testing.T) {
	root := t.TempDir()
	git := func(args ...string) string { return gittest.Run(t, root, args...) }
	git("init", "-q", "-b", "main")
	require.NoError(t, os.WriteFile(filepath.Join(root, "a"), []byte("1"), 0o644))
	git("add", "a")
	git("-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "init")

	j := beginJournal(t, root)
	require.NoError(t, storage.WriteFileAtomic(filepath.Join(root, "a"), []byte("2"), 0o644))
	require.NoError(t, storage.WriteFileAtomic(filepath.Join(root, "b"), []byte("new"), 0o644))
	git("add", "-A", "--", "a", "b")
	require.NoError(t, j.Staging([]string{"a", "b"})) // as CommitPaths does before its git add
	require.NoError(t, j.Rollback(unstage(context.Background(), nil)))
	assert.Equal(t, "", git("status", "--porcelain"), "index and tree as HEAD")

	j = beginJournal(t, root)
	g := NewGit(root, nil)
	g.Env = append(g.Env, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	require.NoError(t, storage.WriteFileAtomic(filepath.Join(root, "a"), []byte("3"), 0o644))
	c, err := g.CommitPaths(context.Background(), "three", []string{"a"})
	require.NoError(t, err)
	require.NotNil(t, c)
	require.NoError(t, j.Rollback(unstage(context.Background(), nil)))
	assert.Equal(t, "3", contentOrAbsent(t, filepath.Join(root, "a")), "committed state is not undone")
	assert.Equal(t, "", git("status", "--porcelain"))
}
