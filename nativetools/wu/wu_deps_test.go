// Scaffolded by `cmdbridge scaffold wu:deps`: the native tool's contract with its legacy command.

package wu_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

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

// TestDepsFailures: the schema refuses bad values (INVALID_INPUT at the property) before
// the workspace is looked for; an unknown WU, or none given off a lane branch, is
// NOT_FOUND.
func TestDepsFailures(t *testing.T) {
	root := nativetest.Workspace(t)
	cases := []struct {
		name, dir, input, code, path string
	}{
		{"depth 0", t.TempDir(), `{"depth":0}`, tool.CodeInvalidInput, "/depth"},
		{"unknown direction", root, `{"id":"WU-1","direction":"sideways"}`, tool.CodeInvalidInput, "/direction"},
		{"malformed id", root, `{"id":"wu-1"}`, tool.CodeInvalidInput, "/id"},
		{"unknown WU", root, `{"id":"WU-1"}`, tool.CodeNotFound, ""},
		{"no id off a lane branch", root, `{}`, tool.CodeNotFound, ""},
		{"no workspace", t.TempDir(), `{"id":"WU-1"}`, tool.CodeNoWorkspace, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			failedWith(t, nativetest.Call(t, tc.dir, "wu:deps", tc.input), tc.code, tc.path)
		})
	}
}
