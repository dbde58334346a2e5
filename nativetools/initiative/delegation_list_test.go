// Scaffolded by `cmdbridge scaffold delegation:list`: the native tool's contract with its legacy command.

package initiative_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/initiative"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// delegationRegistry has a WU-1 → WU-2 → WU-3 chain, WU-1 → WU-4, an unrelated
// WU-5 → WU-6, and a later record of dlg-a1 (the latest record per id is used).
const delegationRegistry = `{"id":"dlg-a1","parentWuId":"WU-1","targetWuId":"WU-2","lane":"Core: API","intent":"delegation","delegatedAt":"2026-03-01T08:00:00.000Z","status":"pending","completedAt":null}
{"id":"dlg-b2","parentWuId":"WU-2","targetWuId":"WU-3","lane":"Core: API","intent":"delegation","delegatedAt":"2026-03-01T08:30:00.000Z","status":"pending","completedAt":null}
{"id":"dlg-c3","parentWuId":"WU-1","targetWuId":"WU-4","lane":"Content: Docs","intent":"legacy-spawn","delegatedAt":"2026-03-01T07:00:00.000Z","status":"pending","completedAt":null}
{"id":"dlg-a1","parentWuId":"WU-1","targetWuId":"WU-2","lane":"Core: API","intent":"delegation","delegatedAt":"2026-03-01T08:00:00.000Z","status":"completed","completedAt":"2026-03-01T09:00:00.000Z"}
{"id":"dlg-d4","parentWuId":"WU-5","targetWuId":"WU-6","lane":"Core: API","intent":"delegation","delegatedAt":"2026-03-01T06:00:00.000Z","status":"timeout","completedAt":null}
`

// delegationRows is each row of a delegation:list result as "<id>@<depth>:<status>".
func delegationRows(t *testing.T, data map[string]any) []string {
	t.Helper()
	var rows []string
	for _, r := range data["delegations"].([]any) {
		m := r.(map[string]any)
		rows = append(rows, fmt.Sprintf("%s@%v:%s", m["id"], m["depth"], m["status"]))
	}
	return rows
}

// TestDelegationListTrees: by WU, the tree through the targets, sorted by delegatedAt;
// by initiative, the delegations touching its WUs, a listed WU without a spec included.
func TestDelegationListTrees(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, ".lumenflow/state/delegation-registry.jsonl", delegationRegistry)
	nativetest.Write(t, root, "docs/tasks/initiatives/INIT-3.yaml", initYAML)

	data := nativetest.Data(t, nativetest.Call(t, root, "delegation:list", `{"wu":"WU-1"}`))
	assert.Equal(t, []string{"dlg-c3@0:pending", "dlg-a1@0:completed", "dlg-b2@1:pending"}, delegationRows(t, data))
	row := data["delegations"].([]any)[1].(map[string]any)
	assert.Equal(t, map[string]any{"id": "dlg-a1", "parent": "WU-1", "target": "WU-2", "lane": "Core: API",
		"intent": "delegation", "status": "completed", "delegated_at": "2026-03-01T08:00:00.000Z",
		"completed_at": "2026-03-01T09:00:00.000Z", "depth": 0.0}, row)

	data = nativetest.Data(t, nativetest.Call(t, root, "delegation:list", `{"wu":"WU-2"}`))
	assert.Equal(t, []string{"dlg-b2@0:pending"}, delegationRows(t, data))

	// INIT-3 lists WU-1, which has no spec file: its delegations and their subtrees.
	data = nativetest.Data(t, nativetest.Call(t, root, "delegation:list", `{"initiative":"public-api"}`))
	assert.Equal(t, []string{"dlg-c3@0:pending", "dlg-a1@0:completed"}, delegationRows(t, data))

	data = nativetest.Data(t, nativetest.Call(t, root, "delegation:list", `{"wu":"WU-7"}`))
	assert.Equal(t, []any{}, data["delegations"], "nothing found is an empty list")
}

// TestDelegationListWarnsOnABadLine: a registry line that is not a delegation is a
// warning, not a failure.
func TestDelegationListWarnsOnABadLine(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, ".lumenflow/state/delegation-registry.jsonl", "{\"id\":\"dlg-zz\"}\n")
	out := nativetest.Call(t, root, "delegation:list", `{"wu":"WU-1"}`)
	assert.Equal(t, []any{}, nativetest.Data(t, out)["delegations"])
	warnings, ok := out.Metadata["warnings"].([]string)
	require.True(t, ok, "warnings listed: %#v", out.Metadata)
	require.Len(t, warnings, 1)
	assert.Contains(t, warnings[0], "delegation-registry.jsonl line 1")
}

// TestDelegationListFailures: the kernel's schema refuses a malformed wu and anything but
// exactly one of wu and initiative (INVALID_INPUT) before the handler runs, inside a
// workspace or not; an unknown initiative ("" included) is NOT_FOUND.
func TestDelegationListFailures(t *testing.T) {
	root := nativetest.Workspace(t)
	cases := []struct {
		name, dir, input, code string
	}{
		{"neither", root, `{}`, nativetest.InvalidAt("/")},
		{"both", root, `{"wu":"WU-1","initiative":"INIT-3"}`, nativetest.InvalidAt("/")},
		{"bad wu", root, `{"wu":"WU-"}`, nativetest.InvalidAt("/wu")},
		{"empty wu", root, `{"wu":""}`, nativetest.InvalidAt("/wu")},
		{"neither outside a workspace", t.TempDir(), `{}`, nativetest.InvalidAt("/")},
		{"unknown initiative", root, `{"initiative":"nope"}`, tool.CodeNotFound},
		{"empty initiative", root, `{"initiative":""}`, tool.CodeNotFound},
		{"no workspace", t.TempDir(), `{"wu":"WU-1"}`, tool.CodeNoWorkspace},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := nativetest.Call(t, tc.dir, "delegation:list", tc.input)
			assert.Equal(t, tc.code, nativetest.Outcome(t, out))
			if out.Error.Code != tool.CodeInvalidInput { // a refusal comes before the handler
				assert.Contains(t, out.Metadata, "warnings")
			}
		})
	}
}
