package wsindex

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/storage"
)

// warmUp calls until a call reads nothing: the first reads and watches, the next reads
// again what was read before its watch was in place.
func warmUp(t *testing.T, x *Index) {
	t.Helper()
	for i := 0; i < 5; i++ {
		before := x.Stats().Reads
		same(t, x)
		if x.Stats().Reads == before {
			return
		}
	}
	t.Fatalf("the index still reads after 5 unchanged calls: %+v", x.Stats())
}

// Past the barrier, a warm call stats only the watched directories and their ancestors,
// not every file it answers from.
func TestPastTheBarrierNoStatPerFile(t *testing.T) {
	root := newWorkspace(t, 40)
	x := New(root, Options{})
	defer x.Close()
	require.NotEmpty(t, x.barrierDir, "the barrier starts with the watcher")
	warmUp(t, x)
	before := x.Stats()
	same(t, x)
	after := x.Stats()
	assert.Equal(t, before.Reads, after.Reads, "nothing changed: nothing re-read")
	assert.Greater(t, after.Barriers, before.Barriers, "the call caught up with the watcher")
	x.mu.Lock()
	chain := len(x.chain)
	x.mu.Unlock()
	assert.LessOrEqual(t, after.Stats-before.Stats, chain, "only the directory chain is stat'ed")
	assert.Less(t, chain, 10, "the chain is the few directories read, not the files")
}

// A change made just before a call is seen by that call, with no sleep and no stat of
// the file: the barrier orders it behind the change's event. Edits in place that keep
// the size, rewrites, removals and additions alike.
func TestPastTheBarrierEveryEditIsSeenAtOnce(t *testing.T) {
	root := newWorkspace(t, 6)
	x := New(root, Options{})
	defer x.Close()
	warmUp(t, x)
	p := filepath.Join(root, "docs/tasks/wu/WU-2.yaml")
	for i, edit := range []func(){
		func() { // same size, in place
			data, err := os.ReadFile(p)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(p, []byte(strings.Replace(string(data), "status: ready", "status: xeady", 1)), 0o644))
		},
		func() { writeWU(t, root, 2, "blocked") },
		func() { require.NoError(t, os.Remove(filepath.Join(root, "docs/tasks/wu/WU-1.yaml"))) },
		func() { writeWU(t, root, 1, "done") },
		func() { writeWU(t, root, 30, "ready") },
		func() { write(t, root, "workspace.yaml", "id: acme\nname: Acme Two\n") },
	} {
		edit()
		same(t, x)
		assert.Positive(t, x.Stats().Barriers, "edit %d", i)
	}
	assert.Equal(t, "blocked", status(t, x, "WU-2"))
}

// A watch follows a directory, not its name: a directory replaced as a whole (its own
// rename, or an ancestor's) is seen through the chain, and everything is read anew.
func TestPastTheBarrierReplacedDirectories(t *testing.T) {
	for _, moved := range []string{"docs/tasks/wu", "docs"} {
		t.Run(moved, func(t *testing.T) {
			root := newWorkspace(t, 4)
			x := New(root, Options{})
			defer x.Close()
			warmUp(t, x)
			old := filepath.Join(root, filepath.FromSlash(moved))
			require.NoError(t, os.Rename(old, old+".old"))
			out, err := exec.Command("cp", "-a", old+".old", old).CombinedOutput()
			require.NoError(t, err, "%s", out)
			require.NoError(t, os.RemoveAll(old+".old"))
			writeWU(t, root, 3, "done") // in the new directory only
			rescans := x.Stats().Rescans
			same(t, x)
			assert.Greater(t, x.Stats().Rescans, rescans, "the replaced directory ordered a rescan")
			assert.Equal(t, "done", status(t, x, "WU-3"))
			warmUp(t, x) // and it is watched again
		})
	}
}

// Without a watcher (closed, or never started) calls validate by stat, and stay right.
func TestClosedWatcherFallsBackToStat(t *testing.T) {
	root := newWorkspace(t, 3)
	x := New(root, Options{Now: trusting})
	warmUp(t, x)
	require.NoError(t, x.Close())
	barriers := x.Stats().Barriers
	writeWU(t, root, 2, "blocked")
	same(t, x)
	assert.Equal(t, "blocked", status(t, x, "WU-2"))
	assert.Equal(t, barriers, x.Stats().Barriers, "no barrier without a watcher")
}

// A writer reads back what it wrote earlier in the same call: its source took the barrier
// when the call began, and its own writes come after it, so it must not trust a covered
// entry without a stat (wu:recover nuke reads the WU its reset just rewrote; the warm
// parity lane once saw the old status). The clock trusts every signature at once, so only
// validation can tell the write.
func TestWriterSourceSeesItsOwnWrites(t *testing.T) {
	root := newWorkspace(t, 3)
	x := New(root, Options{Now: trusting})
	defer x.Close()
	warmUp(t, x)
	for i := 0; i < 50; i++ {
		ws, err := delivery.Load(root, root)
		require.NoError(t, err)
		ws.Source = x.WriterSource(ws)
		w, err := delivery.ReadWU(ws, "WU-2")
		require.NoError(t, err)
		next := map[string]string{"ready": "in_progress", "in_progress": "ready"}[w.Status]
		require.NotEmpty(t, next, "status %q", w.Status)
		w.Set("status", storage.StrNode(next))
		w.Refresh()
		require.NoError(t, delivery.WriteWU(root, w))
		again, err := delivery.ReadWU(ws, "WU-2")
		require.NoError(t, err)
		require.Equal(t, next, again.Status, "iteration %d: the writer read back the status it replaced", i)
	}
}
