package commandstest_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/commands/commandstest"
)

// listing maps every entry under dir to its mode and, for a file, its content.
func listing(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		out[rel] = info.Mode().String()
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] += " " + string(data)
		}
		return nil
	}))
	return out
}

// TestTreeWritesCopies: every copy a Tree writes has the source's directories, files,
// contents and modes, into a new directory or one whose directories exist; a file that
// exists already, a symbolic link and a linked worktree's .git file are errors.
func TestTreeWritesCopies(t *testing.T) {
	src := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(src, "a", "b"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(src, "empty"), 0o750))
	require.NoError(t, os.WriteFile(filepath.Join(src, "top.txt"), []byte("top\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(src, "a", "run.sh"), []byte("#!/bin/sh\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(src, "a", "b", "ro"), []byte("read only"), 0o444))
	require.NoError(t, os.WriteFile(filepath.Join(src, "a", "b", "empty"), nil, 0o600))
	tree, err := commandstest.ReadTree(src)
	require.NoError(t, err)
	want := listing(t, src)
	require.Len(t, want, 7)

	for i := 0; i < 2; i++ {
		dst := filepath.Join(t.TempDir(), "copy")
		require.NoError(t, tree.Write(dst))
		assert.Equal(t, want, listing(t, dst), "copy %d", i)
	}
	// Into a directory whose directories exist, and then over its own files: refused.
	dst := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dst, "a", "b"), 0o755))
	require.NoError(t, tree.Write(dst))
	assert.Equal(t, want, listing(t, dst))
	require.Error(t, tree.Write(dst), "the files exist")

	link := t.TempDir()
	require.NoError(t, os.Symlink("top.txt", filepath.Join(link, "l")))
	_, err = commandstest.ReadTree(link)
	require.Error(t, err, "a symbolic link")
	wt := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: /elsewhere/.git/worktrees/x\n"), 0o644))
	_, err = commandstest.ReadTree(wt)
	require.Error(t, err, "a linked worktree")
}
