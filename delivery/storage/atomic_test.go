package storage

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a", "b.txt")
	require.NoError(t, WriteFileAtomic(p, []byte("one"), 0o600))
	fi, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "a new file gets perm")
	require.NoError(t, os.Chmod(p, 0o640))
	require.NoError(t, WriteFileAtomic(p, []byte("two"), 0o600))
	got, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "two", string(got))
	fi, err = os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm(), "an existing file keeps its mode")
	ents, err := os.ReadDir(filepath.Dir(p))
	require.NoError(t, err)
	assert.Len(t, ents, 1, "no temporary file left behind")
	assert.ErrorContains(t, WriteFileAtomic(filepath.Join(dir, "a"), []byte("x"), 0o644), "is a directory")
}

func TestWriteFileAtomicIn(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer root.Close()
	require.NoError(t, WriteFileAtomicIn(root, "x/y/z.txt", []byte("hi"), 0o644))
	got, err := os.ReadFile(filepath.Join(dir, "x", "y", "z.txt"))
	require.NoError(t, err)
	assert.Equal(t, "hi", string(got))
	ents, err := os.ReadDir(filepath.Join(dir, "x", "y"))
	require.NoError(t, err)
	assert.Len(t, ents, 1, "no temporary file left behind")

	// A directory replaced by a symlink leading out of the root: the write is refused
	// and nothing lands outside.
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "escape")))
	err = WriteFileAtomicIn(root, "escape/pwned.txt", []byte("x"), 0o644)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "path escapes from parent", "an os.Root escape (delivery.IsRootEscape)")
	_, err = os.Stat(filepath.Join(outside, "pwned.txt"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// BenchmarkWriteFileAtomic is the cost of one durable replace (two fsyncs) of a small
// file; run with TMPDIR on the file system of interest.
func BenchmarkWriteFileAtomic(b *testing.B) {
	p := filepath.Join(b.TempDir(), "f.yaml")
	data := []byte("id: WU-1\ntitle: a small work unit\n")
	for b.Loop() {
		if err := WriteFileAtomic(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}
