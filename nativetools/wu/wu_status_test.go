// Scaffolded by `cmdbridge scaffold wu:status`: the native tool's contract with its legacy command.

package wu_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestStatusOfAClaimedWU: the WU's state, its lock and the caller's location, read only.
func TestStatusOfAClaimedWU(t *testing.T) {
	ws := nt.Workspace(t)
	id := create(t, ws)
	claim(t, ws, id)
	head := nt.Git(t, ws, "rev-parse", "HEAD")
	out := nt.Call(t, ws, "wu:status", `{"id":"`+id+`"}`)
	d := nt.Data(t, out)
	assert.Equal(t, "in_progress", d["status"])
	assert.Equal(t, "in_progress", d["event_status"])
	assert.Equal(t, true, d["consistent"])
	assert.Nil(t, d["inconsistency"])
	assert.Equal(t, map[string]any{"owner": "ada@example.com", "wu_id": id, "timestamp": "2026-03-02T18:37:08.384Z", "stale": false}, d["lock"])
	// The lock file is not committed, so the checkout is dirty, as git itself says.
	dirty := nt.Git(t, ws, "status", "--porcelain") != ""
	assert.True(t, dirty)
	assert.Equal(t, map[string]any{"type": "main", "git_branch": "main", "dirty": dirty}, d["location"])
	assert.Equal(t, []any{}, d["blocked_by"])
	assert.Equal(t, []string{}, out.Metadata["warnings"])
	assert.Equal(t, head, nt.Git(t, ws, "rev-parse", "HEAD"), "read only")
}

// TestStatusFailures: the schema refuses a malformed id, even without a workspace; no id
// on main and an unknown id are NOT_FOUND.
func TestStatusFailures(t *testing.T) {
	refusals(t, "wu:status", []refusal{
		{"empty id is malformed, not absent", `{"id":""}`, "/id"},
		{"malformed id", `{"id":"twelve"}`, "/id"},
	})
	nt.Failures(t, "wu:status", nil, []nt.Failure{
		nt.Case("no workspace", `{"id":"WU-1"}`, true, tool.CodeNoWorkspace),
		nt.Case("no id, none inferable on main", `{}`, false, tool.CodeNotFound),
		nt.Case("unknown id", `{"id":"WU-9"}`, false, tool.CodeNotFound),
	})
}
