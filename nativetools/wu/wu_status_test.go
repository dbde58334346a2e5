// Scaffolded by `cmdbridge scaffold wu:status`: the native tool's contract with its legacy command.

package wu_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	"github.com/cmdbridge/cmdbridge/nativetools"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/nativetools/schematest"
	"github.com/cmdbridge/cmdbridge/nativetools/wu"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestStatusSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestStatusSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Lookup("wu:status")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("wu:status")
	require.True(t, ok, "native tool not registered")
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestStatusDecodesFullInput: every property decodes into StatusInput and survives the round trip.
func TestStatusDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("wu:status")
	require.True(t, ok, "native tool not registered")
	raw, err := json.Marshal(schematest.FullInput(nt.Spec.InputSchema))
	require.NoError(t, err)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(wu.StatusInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}

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

// TestStatusFailures: a malformed id is USAGE even without a workspace; no id on main
// and an unknown id are NOT_FOUND.
func TestStatusFailures(t *testing.T) {
	cases := []struct {
		name, input string
		noWS        bool
		code        string
	}{
		{"empty id is malformed, not absent", `{"id":""}`, true, tool.CodeUsage},
		{"malformed id", `{"id":"twelve"}`, false, tool.CodeUsage},
		{"no workspace", `{"id":"WU-1"}`, true, tool.CodeNoWorkspace},
		{"no id, none inferable on main", `{}`, false, tool.CodeNotFound},
		{"unknown id", `{"id":"WU-9"}`, false, tool.CodeNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := nt.Workspace(t)
			if tc.noWS {
				dir = t.TempDir()
			}
			assert.Equal(t, tc.code, nt.Code(t, nt.Call(t, dir, "wu:status", tc.input)))
		})
	}
}
