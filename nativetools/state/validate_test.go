// Scaffolded by `cmdbridge scaffold validate`: the native tool's contract with its legacy command.

package state_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/state"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestValidateReportsFindingsWithTheFailure: a done WU without a stamp is an error, so the
// check fails with CHECK_FAILED and still carries its report; --id limits the check to a WU
// that passes.
func TestValidateReportsFindingsWithTheFailure(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.WU(t, root, "WU-1", "Core: API")
	nativetest.Write(t, root, "docs/tasks/wu/WU-2.yaml",
		"id: WU-2\ntitle: Done without a stamp\nlane: 'Core: API'\ntype: feature\nstatus: done\npriority: P2\ncreated: 2026-02-01\n"+
			"description: A done WU whose stamp was never written, so validate reports it.\nacceptance: [it is found]\n"+
			"completed: 2026-02-02\n")

	out := nativetest.Call(t, root, "validate", `{}`)
	assert.Equal(t, tool.CodeCheckFailed, nativetest.Code(t, out))
	data, ok := out.Data.(map[string]any)
	require.True(t, ok, "a failed check carries its report: %#v", out.Data)
	assert.Equal(t, 2.0, data["checked"])
	assert.Equal(t, false, data["passed"])
	errs, ok := data["errors"].([]any)
	require.True(t, ok)
	require.NotEmpty(t, errs)
	assert.Equal(t, "WU-2", errs[0].(map[string]any)["id"])

	data = nativetest.Data(t, nativetest.Call(t, root, "validate", `{"id":"WU-1"}`))
	assert.Equal(t, 1.0, data["checked"])
	assert.Equal(t, []any{}, data["errors"])
}

// TestValidateFailures: the schema refuses a malformed id ("" included) before the
// handler runs (INVALID_INPUT at /id); an id without a file is NOT_FOUND.
func TestValidateFailures(t *testing.T) {
	root := nativetest.Workspace(t)
	cases := []struct {
		name, dir, input, code, path string
	}{
		{"malformed id", "", `{"id":"12"}`, tool.CodeInvalidInput, "/id"},
		{"empty id", "", `{"id":""}`, tool.CodeInvalidInput, "/id"},
		{"no workspace", "", `{}`, tool.CodeNoWorkspace, ""},
		{"unknown id", root, `{"id":"WU-404"}`, tool.CodeNotFound, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.dir
			if dir == "" {
				dir = t.TempDir()
			}
			out := nativetest.Call(t, dir, "validate", tc.input)
			if tc.code == tool.CodeInvalidInput {
				nativetest.Refused(t, out, tc.path)
				return
			}
			assert.Equal(t, tc.code, nativetest.Code(t, out))
			assert.Contains(t, out.Metadata, "warnings")
		})
	}
}
