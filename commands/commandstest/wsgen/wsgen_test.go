package wsgen_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/commands/commandstest/wsgen"
	"github.com/cmdbridge/cmdbridge/delivery"
)

// tree reads every regular file under dir, by slash path.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = data
		return err
	}))
	return out
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, b, c := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b"), filepath.Join(t.TempDir(), "c")
	_, err := wsgen.Generate(a, wsgen.Options{Seed: 7})
	require.NoError(t, err)
	_, err = wsgen.Generate(b, wsgen.Options{Seed: 7})
	require.NoError(t, err)
	_, err = wsgen.Generate(c, wsgen.Options{Seed: 8})
	require.NoError(t, err)
	ta, tb, tc := tree(t, a), tree(t, b), tree(t, c)
	require.Equal(t, len(ta), len(tb))
	for rel, data := range ta {
		assert.True(t, bytes.Equal(data, tb[rel]), "%s differs between two runs with the same seed", rel)
	}
	differ := len(ta) != len(tc)
	for rel, data := range ta {
		differ = differ || !bytes.Equal(data, tc[rel])
	}
	assert.True(t, differ, "another seed writes another workspace")
}

// TestGenerateWritesTheRealShapes reads a 1× workspace back through the delivery package
// and checks that each shape the manifest names is on disk as described.
func TestGenerateWritesTheRealShapes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ws")
	m, err := wsgen.Generate(dir, wsgen.Options{Seed: 1})
	require.NoError(t, err)
	ws, err := delivery.Load(dir, dir)
	require.NoError(t, err)
	require.Empty(t, ws.Config.Problems)
	assert.Len(t, ws.Config.Lanes, 28)

	files, err := delivery.ListWUs(ws)
	require.NoError(t, err)
	assert.Len(t, files, m.WUs)
	assert.InDelta(t, 1265, m.WUs, 1, "the 1× project has about 1,265 WU specs")
	byID := map[string]*delivery.WU{}
	for _, f := range files {
		require.NoError(t, f.Err, f.ID)
		byID[f.ID] = f.WU
		assert.Empty(t, delivery.ValidateStructure(f.WU), f.ID)
	}
	log, err := delivery.LoadEvents(dir)
	require.NoError(t, err)
	assert.Empty(t, log.Invalid())
	assert.Len(t, log.Lines, m.Events)
	assert.InDelta(t, 2900, m.Events, 300, "about 2,900 event lines at 1×")
	states := log.Replay()

	for _, id := range m.Gone {
		assert.NotContains(t, byID, id)
		assert.NotContains(t, states, id, "%s: no events name a WU without a spec", id)
	}
	for _, id := range m.OrphanStamps {
		assert.True(t, delivery.StampExists(dir, id), "%s: its stamp was left behind", id)
	}
	for _, id := range m.ReleasedThenClosed {
		w := byID[id]
		assert.Equal(t, delivery.StatusClosed, w.NormStatus(), id)
		assert.Equal(t, delivery.StatusReady, states[id], "%s: claimed then released", id)
		var types []string
		for _, ev := range log.For(id) {
			types = append(types, ev.Type)
		}
		assert.Contains(t, types, delivery.EventClaim, id)
		assert.Contains(t, types, delivery.EventRelease, id)
	}
	require.NotEmpty(t, m.DateOnlyCompletion)
	for _, id := range m.DateOnlyCompletion {
		w := byID[id]
		_, err := delivery.ParseTimestamp(w.CompletedAt)
		assert.Error(t, err, "%s: completion has no time", id)
		assert.Equal(t, w.Completed, w.ClaimedAt[:10], "%s: completed the day it was claimed", id)
	}
	for _, id := range m.Legacy {
		assert.Empty(t, byID[id].Exposure, id)
		assert.NotContains(t, states, id, "%s predates the event log", id)
	}
	for _, id := range m.Done {
		assert.True(t, delivery.StampExists(dir, id), "%s: done WUs are stamped", id)
	}
	for _, id := range m.InProgress {
		w := byID[id]
		assert.Equal(t, delivery.StatusInProgress, states[id], id)
		assert.FileExists(t, filepath.Join(dir, filepath.FromSlash(delivery.LockRel(w.Lane))), id)
		assert.DirExists(t, filepath.Join(dir, filepath.FromSlash(w.WorktreePath)), id)
	}
	for _, f := range files {
		if st, ok := states[f.ID]; ok && f.WU.NormStatus() != delivery.StatusClosed {
			assert.Equal(t, f.WU.NormStatus(), st, "%s: the events end where the YAML is", f.ID)
		}
		for _, b := range f.WU.BlockedBy {
			assert.Contains(t, byID, b, "%s: blocked_by names an existing WU", f.ID)
		}
	}

	inits, err := delivery.ListInitiatives(ws)
	require.NoError(t, err)
	assert.Len(t, inits, m.Initiatives)
	assert.Equal(t, 49, m.Initiatives)
	require.NotEmpty(t, m.GoneListedBy)
	for _, in := range inits {
		for _, id := range m.GoneListedBy[in.ID] {
			assert.Contains(t, in.WUs, id, "%s still lists %s", in.ID, id)
		}
	}

	lanes := map[string][]string{}
	for _, l := range ws.Config.Lanes {
		lanes[l.Name] = l.CodePaths
	}
	require.NotEmpty(t, m.SubLanes)
	for _, p := range m.SubLanes {
		parent, sub := strings.TrimSuffix(lanes[p[0]][0], "**"), strings.TrimSuffix(lanes[p[1]][0], "**")
		assert.True(t, strings.HasPrefix(sub, parent), "%s's code paths lie inside %s's", p[1], p[0])
	}
}

// TestGenerateScales checks that the counts grow with the scale (the 4× workspace, no git).
func TestGenerateScales(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 4× workspace")
	}
	m, err := wsgen.Generate(filepath.Join(t.TempDir(), "ws"), wsgen.Options{Seed: 1, Scale: 4})
	require.NoError(t, err)
	assert.InDelta(t, 4*1265, m.WUs, 4)
	assert.Equal(t, 4*49, m.Initiatives)
	assert.InDelta(t, 4*2900, m.Events, 4*300)
	assert.Len(t, m.InProgress, 5, "the team did not grow")
}

func TestGenerateGitWorkspace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ws")
	m, err := wsgen.Generate(dir, wsgen.Options{Seed: 1, Git: true})
	require.NoError(t, err)
	assert.DirExists(t, filepath.Join(dir, ".git"))
	for _, wt := range m.Worktrees {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(wt), ".git"))
		require.NoError(t, err, "%s is a linked worktree", wt)
		assert.True(t, strings.HasPrefix(string(data), "gitdir: "), wt)
		assert.FileExists(t, filepath.Join(dir, filepath.FromSlash(wt), "workspace.yaml"))
	}
}
