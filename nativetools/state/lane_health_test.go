// Scaffolded by `cmdbridge scaffold lane:health`: the native tool's contract with its legacy command.

package state_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/state"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestHealthReportsOverlapsAndGaps: a healthy board with its gaps as a warning; an
// overlap fails with CHECK_FAILED and still carries the report as data.
func TestHealthReportsOverlapsAndGaps(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "workspace.yaml", "id: acme\nsoftware_delivery:\n  lanes:\n    definitions:\n"+
		"      - name: 'Core: API'\n        code_paths: [internal/**]\n")
	nativetest.Write(t, root, "internal/api/health.go", "package api\n")
	nativetest.Git(t, root, "add", "-A")

	out := nativetest.Call(t, root, "lane:health", `{"verbose":true}`)
	data := nativetest.Data(t, out)
	assert.Equal(t, true, data["healthy"])
	assert.Equal(t, 2.0, data["files_checked"])
	assert.Equal(t, []any{"workspace.yaml"}, data["gaps"])
	assert.Equal(t, []string{"1 file(s) are not covered by any lane"}, out.Metadata["warnings"])

	nativetest.Write(t, root, "workspace.yaml", "id: acme\nsoftware_delivery:\n  lanes:\n    definitions:\n"+
		"      - name: 'Core: API'\n        code_paths: [internal/**]\n"+
		"      - name: 'Ops'\n        code_paths: ['**/*.go']\n")
	out = nativetest.Call(t, root, "lane:health", `{"no_coverage":true}`)
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeCheckFailed, out.Error.Code)
	report, ok := out.Data.(map[string]any)
	require.True(t, ok, "the failure carries the report: %#v", out.Data)
	assert.Equal(t, []any{map[string]any{"lanes": []any{"Core: API", "Ops"}, "file_count": 1.0,
		"example_file": "internal/api/health.go"}}, report["overlaps"])
	assert.Equal(t, 0.0, report["gap_count"], "no_coverage skips the gap check")
}

// TestHealthFailures: no lanes is CHECK_FAILED; outside a workspace NO_WORKSPACE.
func TestHealthFailures(t *testing.T) {
	nolanes := nativetest.Workspace(t)
	nativetest.Write(t, nolanes, "workspace.yaml", "id: acme\n")
	for name, tc := range map[string]struct{ dir, code string }{
		"no lanes":     {nolanes, tool.CodeCheckFailed},
		"no workspace": {t.TempDir(), tool.CodeNoWorkspace},
	} {
		t.Run(name, func(t *testing.T) {
			out := nativetest.Call(t, tc.dir, "lane:health", `{}`)
			assert.Equal(t, tc.code, nativetest.Code(t, out))
			assert.Contains(t, out.Metadata, "warnings")
		})
	}
}
