package parity_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/parity"
)

func inode(t *testing.T, p string) uint64 {
	t.Helper()
	fi, err := os.Lstat(p)
	require.NoError(t, err)
	return fi.Sys().(*syscall.Stat_t).Ino
}

func TestSyncTreeMatchesACopyAndKeepsWhatDidNotChange(t *testing.T) {
	src, dst, ref := t.TempDir(), filepath.Join(t.TempDir(), "dst"), filepath.Join(t.TempDir(), "ref")
	put := func(rel, content string) {
		p := filepath.Join(src, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	put("a.yaml", "status: ready\n")
	put("d/b.yaml", "b\n")
	put("gone/c.yaml", "c\n")
	require.NoError(t, os.Symlink("a.yaml", filepath.Join(src, "link")))
	require.NoError(t, parity.SyncTree(src, dst, nil))
	kept, edited := inode(t, filepath.Join(dst, "d/b.yaml")), inode(t, filepath.Join(dst, "a.yaml"))

	put("a.yaml", "status: done \n") // same size
	put("new.yaml", "n\n")
	require.NoError(t, os.RemoveAll(filepath.Join(src, "gone")))
	require.NoError(t, os.Chmod(filepath.Join(src, "d/b.yaml"), 0o600))
	require.NoError(t, parity.SyncTree(src, dst, nil))
	require.NoError(t, parity.CopyTree(src, ref, nil))

	got, err := parity.Snapshot(dst)
	require.NoError(t, err)
	want, err := parity.Snapshot(ref)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, kept, inode(t, filepath.Join(dst, "d/b.yaml")), "an unchanged file is left alone")
	assert.Equal(t, edited, inode(t, filepath.Join(dst, "a.yaml")), "a changed file is rewritten in place")
}
