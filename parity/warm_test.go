package parity_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/parity"
)

// TestScriptsWarm runs every parity script with the native lane warm: each script's
// native calls share one host store and one native directory, so the warm workspace
// index built by its first call answers the later ones, after the script's own edits,
// the legacy lanes' writes (the `delivery` and `bridge` commands) and each sync.
func TestScriptsWarm(t *testing.T) {
	dir := filepath.Join("..", "testdata", "script", "parity")
	runSharded(t, dir, func(t *testing.T, files []string) shardResult {
		p, err := parity.Suite{
			Dir: dir, Files: files, Commands: commands.Default, Env: delivery.ScriptEnv, PassEnv: delivery.ScriptPassEnv,
			Native: nativetools.Default, Runtime: delivery.ToolRuntime, Warm: true,
			Program: "delivery", // testscript.Main puts this test binary on PATH under that name
		}.Params()
		require.NoError(t, err)
		passed := map[string]bool{}
		testscript.RunT(serialT{T: t, verbose: testing.Verbose(), passed: passed}, p)
		return shardResult{Passed: passed}
	})
}

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
	require.NoError(t, parity.SyncTree(src, dst))
	kept, edited := inode(t, filepath.Join(dst, "d/b.yaml")), inode(t, filepath.Join(dst, "a.yaml"))

	put("a.yaml", "status: done \n") // same size
	put("new.yaml", "n\n")
	require.NoError(t, os.RemoveAll(filepath.Join(src, "gone")))
	require.NoError(t, os.Chmod(filepath.Join(src, "d/b.yaml"), 0o600))
	require.NoError(t, parity.SyncTree(src, dst))
	require.NoError(t, parity.CopyTree(src, ref, nil))

	got, err := parity.Snapshot(dst)
	require.NoError(t, err)
	want, err := parity.Snapshot(ref)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, kept, inode(t, filepath.Join(dst, "d/b.yaml")), "an unchanged file is left alone")
	assert.Equal(t, edited, inode(t, filepath.Join(dst, "a.yaml")), "a changed file is rewritten in place")
}
