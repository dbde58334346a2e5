// Scaffolded by `cmdbridge scaffold initiative:list`: the native tool's contract with its legacy command.

package initiative_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/initiative"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestListFiltersOnTheDerivedStatus: every initiative with its derived status and
// progress; --status filters on the derived status; a listed WU without a spec is shown in
// missing and warned about, not counted.
func TestListFiltersOnTheDerivedStatus(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "docs/tasks/initiatives/INIT-3.yaml", initYAML)
	nativetest.Write(t, root, "docs/tasks/initiatives/INIT-4.yaml", "id: INIT-4\nslug: later\ntitle: Later\nstatus: draft\nwus: [WU-7]\n")
	nativetest.Write(t, root, "docs/tasks/wu/WU-1.yaml",
		"id: WU-1\ntitle: Login\nlane: 'Core: API'\nstatus: done\ncreated: 2026-02-01\ndescription: d\nacceptance: []\nphase: 1\n")

	out := nativetest.Call(t, root, "initiative:list", `{}`)
	rows := nativetest.Data(t, out)["initiatives"].([]any)
	require.Len(t, rows, 2)
	init3 := rows[0].(map[string]any)
	assert.Equal(t, "INIT-3", init3["id"])
	assert.Equal(t, "done", init3["status"], "derived: its only WU is done")
	assert.Equal(t, 1.0, init3["done"])
	init4 := rows[1].(map[string]any)
	assert.Equal(t, []any{"WU-7"}, init4["missing"])
	assert.Equal(t, 0.0, init4["total"], "a missing WU is not counted")
	assert.Equal(t, []string{"INIT-4 lists WUs that have no spec: WU-7"}, out.Metadata["warnings"])

	for status, want := range map[string]int{"done": 1, "open": 0, "": 0} {
		out := nativetest.Call(t, root, "initiative:list", `{"status":"`+status+`"}`)
		assert.Len(t, nativetest.Data(t, out)["initiatives"], want, status)
	}
}

// TestListFailures: outside a workspace it is NO_WORKSPACE, with warnings still listed.
func TestListFailures(t *testing.T) {
	out := nativetest.Call(t, t.TempDir(), "initiative:list", `{}`)
	assert.Equal(t, tool.CodeNoWorkspace, nativetest.Code(t, out))
	assert.Contains(t, out.Metadata, "warnings")
}
