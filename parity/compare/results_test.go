package compare_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/parity/compare"
)

// TestResultsMergePerTool: a run of one tool changes only that tool's entry; the others
// keep their status and their own run time, through a write and a read. A run of the
// whole suite drops the tools it did not cover.
func TestResultsMergePerTool(t *testing.T) {
	day1 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	day2 := day1.Add(24 * time.Hour)
	prev := compare.Results{RunAt: day1, Tools: []compare.ToolResult{
		{Tool: "config:get", Status: compare.StatusPass, RunAt: day1, Lanes: []string{"subprocess", "adapter"}},
		{Tool: "file:read", Status: compare.StatusPass, RunAt: day1},
		{Tool: "wu:status", Status: compare.StatusFail, RunAt: day1, Diff: "differs"},
	}}
	path := filepath.Join(t.TempDir(), "last.json")
	require.NoError(t, prev.Write(path))
	read, err := compare.ReadResults(path)
	require.NoError(t, err)

	run := compare.Results{RunAt: day2, Tools: []compare.ToolResult{
		{Tool: "file:read", Status: compare.StatusError, RunAt: day2, Diff: "lane died"},
		{Tool: "wu:prune", Status: compare.StatusInProgress, RunAt: day2, Diff: "NOT_IMPLEMENTED"},
	}}
	require.NoError(t, compare.Merge(read, run, false).Write(path))
	got, err := compare.ReadResults(path)
	require.NoError(t, err)
	assert.Equal(t, compare.ResultsSchemaVersion, got.SchemaVersion)
	assert.Equal(t, day2, got.RunAt)
	byTool := map[string]compare.ToolResult{}
	var order []string
	for _, r := range got.Tools {
		byTool[r.Tool] = r
		order = append(order, r.Tool)
	}
	assert.Equal(t, []string{"config:get", "file:read", "wu:status", "wu:prune"}, order)
	assert.Equal(t, compare.StatusPass, byTool["config:get"].Status, "a tool not run keeps its status")
	assert.Equal(t, day1, byTool["config:get"].RunAt, "and its time")
	assert.Equal(t, []string{"subprocess", "adapter"}, byTool["config:get"].Lanes)
	assert.Equal(t, compare.StatusFail, byTool["wu:status"].Status)
	assert.Equal(t, compare.StatusError, byTool["file:read"].Status, "a failed run never leaves the older pass")
	assert.Equal(t, day2, byTool["file:read"].RunAt)
	assert.Equal(t, compare.StatusInProgress, byTool["wu:prune"].Status)

	whole := compare.Merge(got, run, true)
	var names []string
	for _, r := range whole.Tools {
		names = append(names, r.Tool)
	}
	assert.Equal(t, []string{"file:read", "wu:prune"}, names)
}

// TestReadResultsVersions: version 1 files (one run time for the file) are still read,
// each tool getting the file's time; an unknown version is refused with what to do.
func TestReadResultsVersions(t *testing.T) {
	dir := t.TempDir()
	v1 := filepath.Join(dir, "v1.json")
	require.NoError(t, os.WriteFile(v1, []byte(`{"schema_version": 1, "run_at": "2026-03-01T09:30:00Z", "tools": [
  {"tool": "wu:status", "script": "s", "status": "pass", "lanes": [], "duration_ms": 1, "diff": ""}]}`), 0o644))
	r, err := compare.ReadResults(v1)
	require.NoError(t, err)
	require.Len(t, r.Tools, 1)
	assert.Equal(t, time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC), r.Tools[0].RunAt)

	v9 := filepath.Join(dir, "v9.json")
	require.NoError(t, os.WriteFile(v9, []byte(`{"schema_version": 9, "run_at": "2026-03-01T09:30:00Z", "tools": []}`), 0o644))
	_, err = compare.ReadResults(v9)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "schema_version 9")
	assert.Contains(t, err.Error(), "to rewrite the file")
}
