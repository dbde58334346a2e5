// Scaffolded by `cmdbridge scaffold backlog:status`: the native tool's contract with its legacy command.

package workspace_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/workspace"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/nativetools/workspace"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestStatusSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestStatusSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Default.Lookup("backlog:status")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("backlog:status")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestStatusDecodesFullInput: every property decodes into StatusInput and survives the round trip.
func TestStatusDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("backlog:status")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"include_done":true,"lane":"x-lane","status":["x-status"]}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(workspace.StatusInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}

// TestStatusListsTheBoard: the board by lane, done WUs counted but listed only on request,
// --lane narrowing to one lane (an empty lane being a lane too), and a WU file that does
// not parse a warning.
func TestStatusListsTheBoard(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.WU(t, root, "WU-1", "Core: API")
	nativetest.WU(t, root, "WU-2", "Tooling")
	nativetest.Write(t, root, "docs/tasks/wu/WU-3.yaml",
		"id: WU-3\ntitle: Old\nlane: 'Core: API'\nstatus: done\ncreated: 2026-02-01\ndescription: d\nacceptance: []\n")
	nativetest.Write(t, root, "docs/tasks/wu/WU-4.yaml", "id: [broken\n")

	out := nativetest.Call(t, root, "backlog:status", `{}`)
	data := nativetest.Data(t, out)
	lanes := data["lanes"].([]any)
	require.Len(t, lanes, 2, "the defined lane, then the undefined one")
	core := lanes[0].(map[string]any)
	assert.Equal(t, "Core: API", core["lane"])
	assert.Len(t, core["wus"], 1, "done WUs are not listed by default")
	assert.Equal(t, 1.0, core["counts"].(map[string]any)["done"], "but they are counted")
	assert.Equal(t, []string{"WU-4 skipped: docs/tasks/wu/WU-4.yaml: invalid YAML: yaml: line 1: did not find expected ',' or ']'"},
		out.Metadata["warnings"])

	out = nativetest.Call(t, root, "backlog:status", `{"lane":"Core: API","include_done":true}`)
	lanes = nativetest.Data(t, out)["lanes"].([]any)
	require.Len(t, lanes, 1)
	assert.Len(t, lanes[0].(map[string]any)["wus"], 2)

	out = nativetest.Call(t, root, "backlog:status", `{"lane":""}`)
	assert.Empty(t, nativetest.Data(t, out)["lanes"])
}

// TestStatusFailures: a bad --status value is USAGE before the workspace is looked for.
func TestStatusFailures(t *testing.T) {
	root := nativetest.Workspace(t)
	cases := []struct {
		name, dir, input, code string
	}{
		{"unknown status", root, `{"status":["ready","waiting"]}`, tool.CodeUsage},
		{"unknown status outside a workspace", t.TempDir(), `{"status":["Ready"]}`, tool.CodeUsage},
		{"no workspace", t.TempDir(), `{}`, tool.CodeNoWorkspace},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := nativetest.Call(t, tc.dir, "backlog:status", tc.input)
			assert.Equal(t, tc.code, nativetest.Code(t, out))
			assert.Contains(t, out.Metadata, "warnings")
		})
	}
}
