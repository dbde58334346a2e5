// Scaffolded by `cmdbridge scaffold flow:bottlenecks`: the native tool's contract with its legacy command.

package flow_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	_ "github.com/cmdbridge/cmdbridge/commands/flow"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

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

// TestBottlenecksFailures: the schema refuses a negative limit before the handler runs
// (INVALID_INPUT at /limit); outside a workspace NO_WORKSPACE.
func TestBottlenecksFailures(t *testing.T) {
	cases := []struct {
		name, input, code, path string
	}{
		{"negative limit", `{"limit":-1}`, tool.CodeInvalidInput, "/limit"},
		{"no workspace", `{}`, tool.CodeNoWorkspace, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := nativetest.Call(t, t.TempDir(), "flow:bottlenecks", tc.input)
			if tc.code == tool.CodeInvalidInput {
				nativetest.Refused(t, out, tc.path)
				return
			}
			assert.Equal(t, tc.code, nativetest.Code(t, out))
			assert.Contains(t, out.Metadata, "warnings")
		})
	}
}
