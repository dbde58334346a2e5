// Scaffolded by `cmdbridge scaffold wu:claim`: the native tool's contract with its legacy command.

package wu_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestClaimBranchOnly: status in_progress, the lane lock, the claim event and its commit;
// a second claim of the same WU is an invalid transition.
func TestClaimBranchOnly(t *testing.T) {
	ws := nt.Workspace(t)
	id := create(t, ws)
	d := nt.Data(t, nt.Call(t, ws, "wu:claim", `{"id":"`+id+`","lane":"Core: API","branch_only":true}`))
	assert.Equal(t, "in_progress", d["status"])
	assert.Equal(t, "branch-only", d["claimed_mode"])
	assert.Nil(t, d["worktree_path"])
	assert.Equal(t, ".lumenflow/locks/core-api.lock", d["lock_path"])
	assert.NotEmpty(t, d["session_id"])
	assert.Equal(t, map[string]any{"sha": nt.Git(t, ws, "rev-parse", "HEAD"), "subject": "wu(wu-1): claim for core-api lane", "pushed": false}, d["commit"])
	assert.FileExists(t, filepath.Join(ws, ".lumenflow", "locks", "core-api.lock"))
	assert.Equal(t, tool.CodeInvalidTransition, nt.Code(t, nt.Call(t, ws, "wu:claim", `{"id":"`+id+`","lane":"Core: API"}`)))
}

// TestClaimWorktree: the default mode creates the lane branch and its worktree.
func TestClaimWorktree(t *testing.T) {
	ws := nt.Workspace(t)
	id := create(t, ws)
	d := nt.Data(t, nt.Call(t, ws, "wu:claim", `{"id":"`+id+`","lane":"Core: API"}`))
	assert.Equal(t, "worktree", d["claimed_mode"])
	assert.Equal(t, "worktrees/core-api-wu-1", d["worktree_path"])
	assert.Equal(t, "lane/core-api/wu-1", d["branch"])
	assert.DirExists(t, filepath.Join(ws, "worktrees", "core-api-wu-1"))
}

// TestClaimFailures: the schema's refusals first (INVALID_INPUT at the property), then
// the command's codes, and nothing written.
func TestClaimFailures(t *testing.T) {
	cases := []struct {
		name, input string
		noWS        bool
		code, path  string
	}{
		{"missing lane", `{"id":"WU-1"}`, false, tool.CodeInvalidInput, "/lane"},
		{"missing id", `{"lane":"Core: API"}`, false, tool.CodeInvalidInput, "/id"},
		{"malformed id, no workspace", `{"id":"12","lane":"Core: API"}`, true, tool.CodeInvalidInput, "/id"},
		{"no workspace", `{"id":"WU-1","lane":"Core: API"}`, true, tool.CodeNoWorkspace, ""},
		{"unknown WU", `{"id":"WU-9","lane":"Core: API"}`, false, tool.CodeNotFound, ""},
		{"lane mismatch", `{"id":"WU-1","lane":"Ops"}`, false, tool.CodeValidation, ""},
		{"empty lane is refused by the schema", `{"id":"WU-1","lane":""}`, false, tool.CodeInvalidInput, "/lane"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws := nt.Workspace(t)
			create(t, ws)
			head := nt.Git(t, ws, "rev-parse", "HEAD")
			dir := ws
			if tc.noWS {
				dir = t.TempDir()
			}
			failedWith(t, nt.Call(t, dir, "wu:claim", tc.input), tc.code, tc.path)
			assert.Equal(t, head, nt.Git(t, ws, "rev-parse", "HEAD"), "no commit")
			assert.NoFileExists(t, filepath.Join(ws, ".lumenflow", "locks", "core-api.lock"))
		})
	}
}
