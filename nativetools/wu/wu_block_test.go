// Scaffolded by `cmdbridge scaffold wu:block`: the native tool's contract with its legacy command.

package wu_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestBlockAndUnblock: block records the reason and a dated note and commits; unblock
// removes the reason, notes why and commits; both are invalid transitions out of turn.
func TestBlockAndUnblock(t *testing.T) {
	ws := nt.Workspace(t)
	id := create(t, ws)
	assert.Equal(t, tool.CodeInvalidTransition, nt.Code(t, nt.Call(t, ws, "wu:block", `{"id":"`+id+`","reason":"waiting"}`)),
		"a ready WU cannot be blocked")
	claim(t, ws, id)

	d := nt.Data(t, nt.Call(t, ws, "wu:block", `{"id":"`+id+`","reason":"waiting for the schema"}`))
	assert.Equal(t, map[string]any{"id": id, "status": "blocked", "reason": "waiting for the schema",
		"lock_released": false, "worktree_removed": false,
		"commit": map[string]any{"sha": nt.Git(t, ws, "rev-parse", "HEAD"), "subject": "wu(wu-1): block", "pushed": false}}, d,
		"lock_policy all keeps the lock")
	yaml := readFile(t, ws, "docs/tasks/wu/WU-1.yaml")
	assert.Contains(t, yaml, "blocked_reason: waiting for the schema")
	assert.Contains(t, yaml, "[2026-03-02] Blocked: waiting for the schema")
	assert.Equal(t, tool.CodeInvalidTransition, nt.Code(t, nt.Call(t, ws, "wu:block", `{"id":"`+id+`","reason":"again"}`)))

	d = nt.Data(t, nt.Call(t, ws, "wu:unblock", `{"id":"`+id+`","reason":"schema is frozen"}`))
	assert.Equal(t, "in_progress", d["status"])
	assert.Equal(t, false, d["lock_acquired"], "lock_policy all takes no lock on unblock")
	assert.Equal(t, "wu(wu-1): unblock", nt.Git(t, ws, "log", "-1", "--format=%s"))
	yaml = readFile(t, ws, "docs/tasks/wu/WU-1.yaml")
	assert.NotContains(t, yaml, "blocked_reason")
	assert.Contains(t, yaml, "[2026-03-02] Unblocked: schema is frozen")
	assert.Equal(t, tool.CodeInvalidTransition, nt.Code(t, nt.Call(t, ws, "wu:unblock", `{"id":"`+id+`"}`)))
}

// TestBlockFailures: the schema refuses a missing or blank reason and a malformed id; an
// unknown WU is NOT_FOUND.
func TestBlockFailures(t *testing.T) {
	refusals(t, "wu:block", []refusal{
		{"missing reason", `{"id":"WU-1"}`, "/reason"},
		{"blank reason", `{"id":"WU-1","reason":"  "}`, "/reason"},
		{"malformed id", `{"id":"one","reason":"x"}`, "/id"},
	})
	nt.Failures(t, "wu:block", nil, []nt.Failure{
		nt.Case("no workspace", `{"id":"WU-1","reason":"x"}`, true, tool.CodeNoWorkspace),
		nt.Case("unknown WU", `{"id":"WU-9","reason":"x"}`, false, tool.CodeNotFound),
	})
}

func readFile(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	require.NoError(t, err)
	return string(b)
}
