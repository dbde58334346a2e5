package compare_test

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/parity/compare"
)

func inode(t *testing.T, p string) uint64 {
	t.Helper()
	fi, err := os.Lstat(p)
	require.NoError(t, err)
	return fi.Sys().(*syscall.Stat_t).Ino
}

func TestSyncTreeMatchesACopyAndKeepsWhatDidNotChange(t *testing.T) {
	for name, sync := range map[string]func(src, dst string, skip func(string) bool) error{
		"copy":          compare.SyncTree,
		"share-objects": compare.SyncTreeSharingObjects,
	} {
		t.Run(name, func(t *testing.T) {
			src, dst, ref := t.TempDir(), filepath.Join(t.TempDir(), "dst"), filepath.Join(t.TempDir(), "ref")
			write(t, src, "a.yaml", "status: ready\n")
			write(t, src, "d/b.yaml", "b\n")
			write(t, src, "gone/c.yaml", "c\n")
			write(t, src, ".git/objects/ab/cdef", "object one")
			write(t, src, ".git/objects/ab/0123", "object two")
			require.NoError(t, os.Symlink("a.yaml", filepath.Join(src, "link")))
			require.NoError(t, sync(src, dst, nil))
			kept, edited := inode(t, filepath.Join(dst, "d/b.yaml")), inode(t, filepath.Join(dst, "a.yaml"))
			shared := inode(t, filepath.Join(src, ".git/objects/ab/cdef")) == inode(t, filepath.Join(dst, ".git/objects/ab/cdef"))
			assert.Equal(t, name == "share-objects", shared, "object files are hard links only when shared")

			write(t, src, "a.yaml", "status: done \n") // same size
			write(t, src, "new.yaml", "n\n")
			write(t, src, ".git/objects/12/3456", "object three")
			require.NoError(t, os.RemoveAll(filepath.Join(src, "gone")))
			require.NoError(t, os.Chmod(filepath.Join(src, "d/b.yaml"), 0o600))
			// A program run in dst left a stray file and cut an object short: the next
			// sync takes both back to src's content.
			write(t, dst, "stray.txt", "x\n")
			if !shared {
				write(t, dst, ".git/objects/ab/0123", "cut")
			}
			require.NoError(t, sync(src, dst, nil))
			require.NoError(t, compare.CopyTree(src, ref, nil))

			got, err := compare.Snapshot(dst)
			require.NoError(t, err)
			want, err := compare.Snapshot(ref)
			require.NoError(t, err)
			assert.Equal(t, want, got)
			for _, obj := range []string{".git/objects/ab/0123", ".git/objects/12/3456"} {
				b, err := os.ReadFile(filepath.Join(dst, obj))
				require.NoError(t, err)
				c, err := os.ReadFile(filepath.Join(src, obj))
				require.NoError(t, err)
				assert.Equal(t, string(c), string(b), obj)
			}
			assert.Equal(t, kept, inode(t, filepath.Join(dst, "d/b.yaml")), "an unchanged file is left alone")
			assert.Equal(t, edited, inode(t, filepath.Join(dst, "a.yaml")), "a changed file is rewritten in place")
		})
	}
}

func ctimeOf(t *testing.T, p string) syscall.Timespec {
	t.Helper()
	fi, err := os.Lstat(p)
	require.NoError(t, err)
	return fi.Sys().(*syscall.Stat_t).Ctim
}

// A Mirror skips what has not changed on either side since its last Sync (no read, no
// write), and still brings back every change: an edit of the same size in the source, a
// write of the same size and a mode change in the directory it keeps, a stray file.
func TestMirrorSkipsWhatDidNotChangeAndCatchesWhatDid(t *testing.T) {
	const window = 50 * time.Millisecond
	src, dst, ref := t.TempDir(), filepath.Join(t.TempDir(), "dst"), filepath.Join(t.TempDir(), "ref")
	write(t, src, "a.yaml", "status: ready\n")
	write(t, src, "b.yaml", "title: bee\n")
	write(t, src, "d/c.yaml", "c\n")
	write(t, src, ".git/objects/ab/cdef", "object one")
	m := &compare.Mirror{Src: src, Dst: dst, RacyWindow: window}
	require.NoError(t, m.Sync())
	// Files read within the racy window of their last change are read again by the next
	// Sync; once read after it, their signatures alone say they have not changed.
	time.Sleep(2 * window)
	require.NoError(t, m.Sync())
	before := map[string]syscall.Timespec{}
	for _, f := range []string{"a.yaml", "b.yaml", "d/c.yaml"} {
		before[f] = ctimeOf(t, filepath.Join(dst, f))
	}
	require.NoError(t, m.Sync())
	for f, c := range before {
		assert.Equal(t, c, ctimeOf(t, filepath.Join(dst, f)), "%s was left alone", f)
	}

	write(t, src, "a.yaml", "status: done \n") // same size, in the source
	write(t, dst, "b.yaml", "title: BEE\n")    // same size, by a program run in dst
	require.NoError(t, os.Chmod(filepath.Join(dst, "d/c.yaml"), 0o600))
	write(t, dst, "stray.txt", "x\n")
	require.NoError(t, m.Sync())
	require.NoError(t, compare.CopyTree(src, ref, nil))
	got, err := compare.Snapshot(dst)
	require.NoError(t, err)
	want, err := compare.Snapshot(ref)
	require.NoError(t, err)
	assert.Equal(t, want, got)

}

// After a Sync, programs run on both sides; the files neither touched are Unchanged and a
// comparison of the two trees need not read them, yet every change either side made
// still shows, including an edit of the same size.
func TestMirrorUnchangedLeavesOutOnlyUntouchedFiles(t *testing.T) {
	const window = 50 * time.Millisecond
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "dst")
	for _, f := range []string{"a.yaml", "b.yaml", "c.yaml", "d/e.yaml"} {
		write(t, src, f, "name: "+f+"\n")
	}
	m := &compare.Mirror{Src: src, Dst: dst, RacyWindow: window}
	require.NoError(t, m.Sync())
	assert.Empty(t, m.Unchanged(), "files read within the racy window are not vouched for")
	time.Sleep(2 * window)
	require.NoError(t, m.Sync())
	assert.ElementsMatch(t, []string{"a.yaml", "b.yaml", "c.yaml", "d/e.yaml"}, slices.Collect(maps.Keys(m.Unchanged())))

	write(t, src, "a.yaml", "name: A.yaml\n") // the served run, same size
	write(t, dst, "b.yaml", "name: B.yaml\n") // the shadow run, same size
	write(t, dst, "new.yaml", "x\n")
	same := m.Unchanged()
	assert.ElementsMatch(t, []string{"c.yaml", "d/e.yaml"}, slices.Collect(maps.Keys(same)))

	a, err := compare.SnapshotKnown(src, nil, same)
	require.NoError(t, err)
	b, err := compare.SnapshotKnown(dst, nil, same)
	require.NoError(t, err)
	assert.Equal(t, same["c.yaml"], a["c.yaml"].SHA256, "an unchanged file is not read")
	assert.True(t, strings.HasPrefix(same["c.yaml"], "unread:"), same["c.yaml"])
	assert.Equal(t, int64(len("name: c.yaml\n")), a["c.yaml"].Size)
	var paths []string
	for _, d := range compare.CompareTrees(a, b) {
		paths = append(paths, d.Path)
	}
	assert.Equal(t, []string{"a.yaml", "b.yaml", "new.yaml"}, paths)
}
