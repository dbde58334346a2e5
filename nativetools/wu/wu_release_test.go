// Scaffolded by `cmdbridge scaffold wu:release`: the native tool's contract with its legacy command.

package wu_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestRelease: an in-progress WU goes back to ready with its claim fields cleared, the
// lock held for it released, a release event and a commit; a blank reason is the default
// one; a ready WU cannot be released.
func TestRelease(t *testing.T) {
	ws := nt.Workspace(t)
	id := create(t, ws)
	assert.Equal(t, tool.CodeInvalidTransition, nt.Code(t, nt.Call(t, ws, "wu:release", `{"id":"`+id+`"}`)),
		"a ready WU cannot be released")
	nt.Data(t, nt.Call(t, ws, "wu:claim", `{"id":"`+id+`","lane":"Core: API"}`))
	require.FileExists(t, filepath.Join(ws, ".lumenflow", "locks", "core-api.lock"))

	d := nt.Data(t, nt.Call(t, ws, "wu:release", `{"id":"`+id+`","reason":"  ","remove_worktree":true}`))
	assert.Equal(t, map[string]any{"id": id, "status": "ready", "reason": "released via wu:release",
		"lock_released": true, "worktree_removed": true,
		"commit": map[string]any{"sha": nt.Git(t, ws, "rev-parse", "HEAD"), "subject": "wu(wu-1): release", "pushed": false}}, d)
	yaml := readFile(t, ws, "docs/tasks/wu/WU-1.yaml")
	assert.Contains(t, yaml, "status: ready")
	for _, k := range []string{"claimed_at", "claimed_mode", "claimed_branch", "worktree_path", "session_id"} {
		assert.NotContains(t, yaml, k+":")
	}
	assert.NoFileExists(t, filepath.Join(ws, ".lumenflow", "locks", "core-api.lock"))
	assert.NoDirExists(t, filepath.Join(ws, "worktrees", "core-api-wu-1"))
	assert.Contains(t, nt.Git(t, ws, "branch", "--list", "lane/core-api/wu-1"), "lane/core-api/wu-1", "the branch is kept")
	assert.Contains(t, readFile(t, ws, ".lumenflow/state/wu-events.jsonl"),
		`{"type":"release","wuId":"WU-1","timestamp":"2026-03-02T18:37:08.384Z","reason":"released via wu:release"}`)
	assert.Equal(t, tool.CodeInvalidTransition, nt.Code(t, nt.Call(t, ws, "wu:release", `{"id":"`+id+`"}`)))

	claim(t, ws, id)
	d = nt.Data(t, nt.Call(t, ws, "wu:release", `{"id":"`+id+`","reason":"agent crashed"}`))
	assert.Equal(t, "agent crashed", d["reason"])
	assert.Equal(t, false, d["worktree_removed"])
}

// TestReleaseFailures: the schema refuses a missing or malformed id before the workspace
// is looked for; an unknown WU is NOT_FOUND.
func TestReleaseFailures(t *testing.T) {
	refusals(t, "wu:release", []refusal{
		{"missing id", `{"reason":"x"}`, "/id"},
		{"malformed id", `{"id":"one"}`, "/id"},
	})
	nt.Failures(t, "wu:release", nil, []nt.Failure{
		nt.Case("no workspace", `{"id":"WU-1"}`, true, tool.CodeNoWorkspace),
		nt.Case("unknown WU", `{"id":"WU-9"}`, false, tool.CodeNotFound),
	})
}
