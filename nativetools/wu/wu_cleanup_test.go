// Scaffolded by `cmdbridge scaffold wu:cleanup`: the native tool's contract with its legacy command.

package wu_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	"github.com/cmdbridge/cmdbridge/nativetools"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/nativetools/wu"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestCleanupSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestCleanupSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Default.Lookup("wu:cleanup")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("wu:cleanup")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestCleanupDecodesFullInput: every property decodes into CleanupInput and survives the round trip.
func TestCleanupDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("wu:cleanup")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"id":"x-id"}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(wu.CleanupInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}

// TestCleanup: a done WU's worktree, merged lane branch and lock go, nothing is
// committed, and a second run finds nothing; a WU that is not done is
// INVALID_TRANSITION.
func TestCleanup(t *testing.T) {
	ws := nt.Workspace(t)
	id := create(t, ws)
	assert.Equal(t, tool.CodeInvalidTransition, nt.Code(t, nt.Call(t, ws, "wu:cleanup", `{"id":"`+id+`"}`)), "a ready WU")
	nt.Data(t, nt.Call(t, ws, "wu:claim", `{"id":"`+id+`","lane":"Core: API"}`))
	head := nt.Git(t, ws, "rev-parse", "HEAD")
	spec := readFile(t, ws, "docs/tasks/wu/WU-1.yaml")
	nt.Write(t, ws, "docs/tasks/wu/WU-1.yaml", strings.Replace(spec, "status: in_progress", "status: done", 1))

	d := nt.Data(t, nt.Call(t, ws, "wu:cleanup", `{"id":"`+id+`"}`))
	assert.Equal(t, map[string]any{"id": id, "worktree_removed": true, "branch_deleted": true, "lock_released": true}, d)
	assert.NoDirExists(t, filepath.Join(ws, "worktrees", "core-api-wu-1"))
	assert.NoFileExists(t, filepath.Join(ws, ".lumenflow", "locks", "core-api.lock"))
	assert.Empty(t, nt.Git(t, ws, "branch", "--list", "lane/core-api/wu-1"))
	assert.Equal(t, head, nt.Git(t, ws, "rev-parse", "HEAD"), "nothing is committed")

	d = nt.Data(t, nt.Call(t, ws, "wu:cleanup", `{"id":"`+id+`"}`))
	assert.Equal(t, map[string]any{"id": id, "worktree_removed": false, "branch_deleted": false, "lock_released": false}, d)
}
