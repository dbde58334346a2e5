package worktree_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	_ "github.com/cmdbridge/cmdbridge/nativetools/worktree"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestCreateListRemove(t *testing.T) {
	ws := nt.Workspace(t)
	head := nt.Git(t, ws, "rev-parse", "HEAD")

	d := nt.Data(t, nt.Call(t, ws, "worktree:create", `{"path":"worktrees/core-api-wu-12","branch":"lane/core-api/wu-12"}`))
	assert.Equal(t, map[string]any{"path": "worktrees/core-api-wu-12", "branch": "lane/core-api/wu-12", "head": head, "branch_created": true}, d)

	// An existing branch is checked out, not created.
	nt.Git(t, ws, "branch", "feature")
	d = nt.Data(t, nt.Call(t, ws, "worktree:create", `{"path":"worktrees/feat","branch":"feature"}`))
	assert.Equal(t, false, d["branch_created"])

	d = nt.Data(t, nt.Call(t, ws, "worktree:list", `{}`))
	list := d["worktrees"].([]any)
	require.Len(t, list, 3)
	main := list[0].(map[string]any)
	assert.Equal(t, ".", main["path"])
	assert.Equal(t, "main", main["branch"])
	assert.Nil(t, main["wu_id"])
	lane := list[1].(map[string]any)
	assert.Equal(t, "worktrees/core-api-wu-12", lane["path"])
	assert.Equal(t, "WU-12", lane["wu_id"])
	assert.Equal(t, "core-api", lane["lane_kebab"])
	assert.Equal(t, head, lane["head"])

	// Dirty: refused without force.
	nt.Write(t, ws, "worktrees/core-api-wu-12/dirty.txt", "x\n")
	assert.Equal(t, tool.CodeDirtyWorktree, nt.Code(t, nt.Call(t, ws, "worktree:remove", `{"path":"worktrees/core-api-wu-12"}`)))
	d = nt.Data(t, nt.Call(t, ws, "worktree:remove", `{"path":"worktrees/core-api-wu-12","force":true,"delete_branch":true}`))
	assert.Equal(t, map[string]any{"path": "worktrees/core-api-wu-12", "removed": true, "branch": "lane/core-api/wu-12", "branch_deleted": true}, d)
	_, err := os.Stat(filepath.Join(ws, "worktrees", "core-api-wu-12"))
	assert.True(t, os.IsNotExist(err))
	assert.Empty(t, nt.Git(t, ws, "branch", "--list", "lane/core-api/wu-12"))

	d = nt.Data(t, nt.Call(t, ws, "worktree:remove", `{"path":"worktrees/feat"}`))
	assert.Equal(t, false, d["branch_deleted"])
	assert.Equal(t, "feature", d["branch"])
	assert.NotEmpty(t, nt.Git(t, ws, "branch", "--list", "feature"))
}

func TestCreateAndRemoveRefusals(t *testing.T) {
	ws := nt.Workspace(t)
	nt.Write(t, ws, "worktrees/taken/file", "x")
	cases := []struct {
		tool, input, code string
	}{
		{"worktree:create", `{"path":"elsewhere/x","branch":"b"}`, tool.CodePathOutsideWorkspace},
		{"worktree:create", `{"path":"../x","branch":"b"}`, tool.CodePathOutsideWorkspace},
		{"worktree:create", `{"path":"worktrees","branch":"b"}`, tool.CodePathOutsideWorkspace},
		{"worktree:create", `{"path":"worktrees/taken","branch":"b"}`, tool.CodeAlreadyExists},
		{"worktree:create", `{"path":"worktrees/x","branch":"b","base":"no-such-ref"}`, tool.CodeGitError},
		{"worktree:create", `{"path":"","branch":""}`, tool.CodeInvalidInput},
		// Operands (tool.OperandPattern): git would read these as options.
		{"worktree:create", `{"path":"worktrees/x","branch":"--edit-description","base":"main"}`, tool.CodeInvalidInput},
		{"worktree:create", `{"path":"worktrees/x","branch":"b","base":"--detach"}`, tool.CodeInvalidInput},
		{"worktree:remove", `{"path":"worktrees/none"}`, tool.CodeNotFound},
		{"worktree:remove", `{"path":"."}`, tool.CodeNotFound},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.code, nt.Code(t, nt.Call(t, ws, tc.tool, tc.input)), tc.tool+" "+tc.input)
	}
}

func TestListOutsideARepository(t *testing.T) {
	assert.Equal(t, tool.CodeGitError, nt.Code(t, nt.Call(t, t.TempDir(), "worktree:list", `{}`)))
}
