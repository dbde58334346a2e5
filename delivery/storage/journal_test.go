package storage

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// begin begins a journal on root, failing the test when it cannot.
func begin(t *testing.T, root string) *Journal {
	t.Helper()
	j, err := BeginJournal(context.Background(), root, nil)
	require.NoError(t, err)
	return j
}

func readOrAbsent(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return "<absent>"
	}
	require.NoError(t, err)
	return string(b)
}

// TestJournalRollbackRestoresEveryKind: a created file (and its new directories) is
// removed, a rewritten file gets its content and mode back, an appended log is truncated
// to its size, a removed file comes back; the records are restored newest first, so a
// file appended to and then rewritten ends with its original content.
func TestJournalRollbackRestoresEveryKind(t *testing.T) {
	root := t.TempDir()
	mod, log, gone, mixed := filepath.Join(root, "mod.yaml"), filepath.Join(root, "s", "log.jsonl"), filepath.Join(root, "gone"), filepath.Join(root, "mixed.jsonl")
	require.NoError(t, os.WriteFile(mod, []byte("old\n"), 0o600))
	require.NoError(t, os.MkdirAll(filepath.Dir(log), 0o755))
	require.NoError(t, os.WriteFile(log, []byte("{\"a\":1}\n"), 0o644))
	require.NoError(t, os.WriteFile(gone, []byte("keep me"), 0o644))
	require.NoError(t, os.WriteFile(mixed, []byte("{\"m\":1}\n"), 0o644))

	j := begin(t, root)
	created := filepath.Join(root, "new", "deep", "WU-1.yaml")
	require.NoError(t, WriteFileAtomic(created, []byte("x"), 0o644))
	require.NoError(t, WriteFileAtomic(mod, []byte("new\n"), 0o644))
	require.NoError(t, AppendJSONL(log, map[string]int{"b": 2}))
	JournalWrite(gone)
	require.NoError(t, os.Remove(gone))
	require.NoError(t, AppendJSONL(mixed, map[string]int{"m": 2}))
	require.NoError(t, RewriteLines(mixed, []byte("rewritten\n")))
	assert.Equal(t, 8, j.Len(), "new, new/deep, WU-1.yaml, mod, log, gone, mixed (its size, then its content)")

	require.NoError(t, j.Rollback(nil))
	assert.Equal(t, "<absent>", readOrAbsent(t, created))
	assert.NoDirExists(t, filepath.Join(root, "new"), "directories the run created are removed")
	assert.Equal(t, "old\n", readOrAbsent(t, mod))
	fi, err := os.Stat(mod)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the mode comes back")
	assert.Equal(t, "{\"a\":1}\n", readOrAbsent(t, log))
	assert.Equal(t, "keep me", readOrAbsent(t, gone))
	assert.Equal(t, "{\"m\":1}\n", readOrAbsent(t, mixed))
	assert.Nil(t, JournalFor(mod), "the journal ended")
}

// TestJournalDiscardKeepsWrites: a successful run's writes stay; writes after the journal
// ended are not recorded.
func TestJournalDiscardKeepsWrites(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "a", "f")
	j := begin(t, root)
	require.NoError(t, WriteFileAtomic(p, []byte("v1"), 0o644))
	j.Discard()
	assert.Equal(t, "v1", readOrAbsent(t, p))
	assert.Equal(t, 0, j.Len())
	require.NoError(t, j.Rollback(nil))
	assert.Equal(t, "v1", readOrAbsent(t, p), "a discarded journal restores nothing")
}

// TestJournalOnePerRoot: a second journal on a busy root is inert; a directory a run
// created but someone else filled stays; .git is never journaled.
func TestJournalOnePerRoot(t *testing.T) {
	root := t.TempDir()
	j := begin(t, root)
	k := begin(t, root)
	require.NoError(t, WriteFileAtomic(filepath.Join(root, "d", "mine"), nil, 0o644))
	require.NoError(t, WriteFileAtomic(filepath.Join(root, ".git", "x"), nil, 0o644))
	assert.Equal(t, 0, k.Len())
	assert.Equal(t, 2, j.Len(), "d and d/mine; nothing under .git")
	require.NoError(t, k.Rollback(nil))
	require.NoError(t, os.WriteFile(filepath.Join(root, "d", "theirs"), nil, 0o644))
	require.NoError(t, j.Rollback(nil))
	assert.FileExists(t, filepath.Join(root, "d", "theirs"))
	assert.NoFileExists(t, filepath.Join(root, "d", "mine"))
	assert.FileExists(t, filepath.Join(root, ".git", "x"))
}
