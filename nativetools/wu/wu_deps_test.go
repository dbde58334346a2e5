// Scaffolded by `cmdbridge scaffold wu:deps`: the native tool's contract with its legacy command.

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
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/nativetools/wu"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestDepsSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestDepsSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Default.Lookup("wu:deps")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("wu:deps")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestDepsDecodesFullInput: every property decodes into DepsInput and survives the round trip.
func TestDepsDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("wu:deps")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"depth":7,"direction":"up","id":"x-id"}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(wu.DepsInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}

// TestDepsWalksBothSides: upstream follows blocked_by, downstream blocks and the reverse
// blocked_by; a side not asked for is null; depth defaults to 3 and limits the tree.
func TestDepsWalksBothSides(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.WU(t, root, "WU-1", "Core: API")
	nativetest.Write(t, root, "docs/tasks/wu/WU-2.yaml",
		"id: WU-2\ntitle: B\nlane: 'Core: API'\nstatus: ready\ncreated: 2026-02-01\ndescription: d\nacceptance: []\nblocked_by: [WU-1]\n")
	nativetest.Write(t, root, "docs/tasks/wu/WU-3.yaml",
		"id: WU-3\ntitle: C\nlane: 'Core: API'\nstatus: ready\ncreated: 2026-02-01\ndescription: d\nacceptance: []\nblocked_by: [WU-2, WU-9]\n")

	data := nativetest.Data(t, nativetest.Call(t, root, "wu:deps", `{"id":"WU-3","direction":"up"}`))
	assert.Nil(t, data["downstream"])
	up := data["upstream"].([]any)
	require.Len(t, up, 2)
	assert.Equal(t, "WU-1", up[0].(map[string]any)["children"].([]any)[0].(map[string]any)["id"])
	assert.Equal(t, map[string]any{"id": "WU-9", "title": nil, "status": "missing", "cycle": false, "children": []any{}}, up[1])

	data = nativetest.Data(t, nativetest.Call(t, root, "wu:deps", `{"id":"WU-1","depth":1}`))
	down := data["downstream"].([]any)
	require.Len(t, down, 1)
	assert.Equal(t, []any{}, down[0].(map[string]any)["children"], "depth 1 stops at the first level")
	assert.Equal(t, []any{}, data["upstream"])
}

// TestDepsFailures: bad values are USAGE before the workspace is looked for; an unknown
// WU, or none given off a lane branch, is NOT_FOUND.
func TestDepsFailures(t *testing.T) {
	root := nativetest.Workspace(t)
	cases := []struct {
		name, dir, input, code string
	}{
		{"depth 0", t.TempDir(), `{"depth":0}`, tool.CodeUsage},
		{"unknown direction", root, `{"id":"WU-1","direction":"sideways"}`, tool.CodeUsage},
		{"malformed id", root, `{"id":"wu-1"}`, tool.CodeUsage},
		{"unknown WU", root, `{"id":"WU-1"}`, tool.CodeNotFound},
		{"no id off a lane branch", root, `{}`, tool.CodeNotFound},
		{"no workspace", t.TempDir(), `{"id":"WU-1"}`, tool.CodeNoWorkspace},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := nativetest.Call(t, tc.dir, "wu:deps", tc.input)
			assert.Equal(t, tc.code, nativetest.Code(t, out))
		})
	}
}
