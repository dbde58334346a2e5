package evidence_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
)

// TestShadowSummary tallies the shadow notes of a real log per tool (runs, matches,
// mismatches, errors, the last mismatch and the matches since), skips receipts without
// one, and says the log no longer verifies once a record was edited.
func TestShadowSummary(t *testing.T) {
	dir := t.TempDir()
	tallies, verified, err := evidence.ShadowSummary(dir)
	require.NoError(t, err)
	assert.Empty(t, tallies)
	assert.True(t, verified, "no log yet")

	l, err := evidence.Open(evidence.Config{Dir: dir, Sync: evidence.SyncBuffered, CheckpointIdle: -1})
	require.NoError(t, err)
	for i, r := range []evidence.Receipt{
		{ID: "c1", Time: "2026-03-01T10:00:00Z", Tool: "wu:edit", Shadow: &evidence.ShadowNote{Match: true}},
		{ID: "c2", Time: "2026-03-01T10:01:00Z", Tool: "wu:edit", Shadow: &evidence.ShadowNote{Diffs: []string{"adapter/native changed docs/x.yaml"}}},
		{ID: "c3", Time: "2026-03-01T10:02:00Z", Tool: "wu:edit", Shadow: &evidence.ShadowNote{Match: true}},
		{ID: "c4", Time: "2026-03-01T10:03:00Z", Tool: "config:set", Shadow: &evidence.ShadowNote{Error: "copy workspace: disk full"}},
		{ID: "c5", Time: "2026-03-01T10:04:00Z", Tool: "wu:status"},
	} {
		r := r
		require.NoError(t, l.Append(&r), "receipt %d", i)
	}
	require.NoError(t, l.Close())

	tallies, verified, err = evidence.ShadowSummary(dir)
	require.NoError(t, err)
	assert.True(t, verified)
	require.Len(t, tallies, 2)
	assert.Equal(t, &evidence.ShadowTally{Runs: 3, Matches: 2, Mismatches: 1, SinceMismatch: 1,
		Since: "2026-03-01T10:00:00Z", Last: "2026-03-01T10:02:00Z",
		LastMismatch: &evidence.ShadowMismatch{Receipt: "c2", Time: "2026-03-01T10:01:00Z", Diffs: []string{"adapter/native changed docs/x.yaml"}}},
		tallies["wu:edit"])
	assert.Equal(t, 1, tallies["config:set"].Errors)

	// A forged match: the tally counts it, and says the log cannot be trusted.
	path := filepath.Join(dir, evidence.ReceiptsFile)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, bytes.Replace(data, []byte(`"diffs":["adapter/native changed docs/x.yaml"]`), []byte(`"match":true`), 1), 0o644))
	_, verified, err = evidence.ShadowSummary(dir)
	require.NoError(t, err)
	assert.False(t, verified, "an edited record fails verification")
}
