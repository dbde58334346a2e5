// Scaffolded by `cmdbridge scaffold backlog:status`: the native tool's contract with its legacy command.

package workspace_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/workspace"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

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

// TestStatusFailures: a status the command does not know is refused by the schema, on
// any lane and before the workspace is looked for, naming the value; without a
// workspace the call is NO_WORKSPACE.
func TestStatusFailures(t *testing.T) {
	root := nativetest.Workspace(t)
	cases := []struct {
		name, dir, input, code, path string
	}{
		{"unknown status", root, `{"status":["ready","waiting"]}`, tool.CodeInvalidInput, "/status/1"},
		{"unknown status outside a workspace", t.TempDir(), `{"status":["Ready"]}`, tool.CodeInvalidInput, "/status/0"},
		{"no workspace", t.TempDir(), `{}`, tool.CodeNoWorkspace, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := nativetest.Call(t, tc.dir, "backlog:status", tc.input)
			assert.Equal(t, tc.code, nativetest.Code(t, out))
			if tc.path != "" {
				assert.Equal(t, tc.path, out.Error.Details.(map[string]any)["path"])
			} else {
				assert.Contains(t, out.Metadata, "warnings")
			}
		})
	}
}
