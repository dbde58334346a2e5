// Scaffolded by `cmdbridge scaffold flow:bottlenecks`: the native tool's contract with its legacy command.

package flow_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/flow"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/flow"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestBottlenecksSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestBottlenecksSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Default.Lookup("flow:bottlenecks")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("flow:bottlenecks")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestBottlenecksDecodesFullInput: every property decodes into BottlenecksInput and survives the round trip.
func TestBottlenecksDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("flow:bottlenecks")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"limit":7}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(flow.BottlenecksInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}

// TestBottlenecksRanksOpenWUs: an open WU blocking others is a bottleneck, done WUs are
// left out of the graph, the limit defaults to 10 and 0 lists none.
func TestBottlenecksRanksOpenWUs(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.WU(t, root, "WU-1", "Core: API")
	nativetest.Write(t, root, "docs/tasks/wu/WU-2.yaml",
		"id: WU-2\ntitle: B\nlane: 'Core: API'\nstatus: ready\ncreated: 2026-02-01\ndescription: d\nacceptance: []\nblocked_by: [WU-1]\n")
	nativetest.Write(t, root, "docs/tasks/wu/WU-3.yaml",
		"id: WU-3\ntitle: C\nlane: 'Core: API'\nstatus: done\ncreated: 2026-02-01\ndescription: d\nacceptance: []\nblocks: [WU-2]\n")

	data := nativetest.Data(t, nativetest.Call(t, root, "flow:bottlenecks", `{}`))
	assert.Equal(t, []any{map[string]any{"id": "WU-1", "title": "t WU-1", "score": 1.0}}, data["bottlenecks"])
	assert.Equal(t, map[string]any{"path": []any{"WU-1", "WU-2"}, "length": 2.0, "cycle_nodes": []any{}}, data["critical_path"])

	data = nativetest.Data(t, nativetest.Call(t, root, "flow:bottlenecks", `{"limit":0}`))
	assert.Equal(t, []any{}, data["bottlenecks"])
}

// TestBottlenecksFailures: a negative limit is USAGE before the workspace is looked for.
func TestBottlenecksFailures(t *testing.T) {
	cases := []struct {
		name, input, code string
	}{
		{"negative limit", `{"limit":-1}`, tool.CodeUsage},
		{"no workspace", `{}`, tool.CodeNoWorkspace},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := nativetest.Call(t, t.TempDir(), "flow:bottlenecks", tc.input)
			assert.Equal(t, tc.code, nativetest.Code(t, out))
			assert.Contains(t, out.Metadata, "warnings")
		})
	}
}
