// Scaffolded by `cmdbridge scaffold doctor`: the native tool's contract with its legacy command.

package workspace_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/workspace"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// checkNames and checkStatus read a doctor report's checks.
func checkNames(t *testing.T, data map[string]any) []string {
	t.Helper()
	checks, ok := data["checks"].([]any)
	require.True(t, ok, "checks: %#v", data["checks"])
	names := make([]string, len(checks))
	for i, c := range checks {
		names[i] = c.(map[string]any)["name"].(string)
	}
	return names
}

func checkStatus(t *testing.T, data map[string]any, name string) string {
	t.Helper()
	for _, c := range data["checks"].([]any) {
		if m := c.(map[string]any); m["name"] == name {
			return m["status"].(string)
		}
	}
	t.Fatalf("no %s check in %#v", name, data["checks"])
	return ""
}

// TestDoctorRunsEveryCheckInOrder: a workspace in a git repository passes with warnings
// only (no gates, no identity, missing directories), every check listed in order.
func TestDoctorRunsEveryCheckInOrder(t *testing.T) {
	root := nativetest.Workspace(t)
	data := nativetest.Data(t, nativetest.Call(t, root, "doctor", `{}`))
	assert.Equal(t, []string{"workspace", "software_delivery", "directories", "git", "git_identity",
		"lanes", "lane_locks", "gates", "gitignore", "event_log"}, checkNames(t, data))
	assert.Equal(t, 0.0, data["errors"])
	assert.Equal(t, "ok", checkStatus(t, data, "git"))
	assert.Equal(t, "warn", checkStatus(t, data, "gates"))
}

// TestDoctorDeepFailsOnValidateErrors: --deep adds the wus check; a validate error makes it
// an error, so doctor is CHECK_FAILED and still carries its report.
func TestDoctorDeepFailsOnValidateErrors(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "docs/tasks/wu/WU-2.yaml",
		"id: WU-2\ntitle: Done without a stamp\nlane: 'Core: API'\ntype: feature\nstatus: done\npriority: P2\ncreated: 2026-02-01\n"+
			"description: A done WU whose stamp was never written, so validate reports it.\nacceptance: [it is found]\n"+
			"completed: 2026-02-02\n")
	out := nativetest.Call(t, root, "doctor", `{"deep":true}`)
	assert.Equal(t, tool.CodeCheckFailed, nativetest.Code(t, out))
	data, ok := out.Data.(map[string]any)
	require.True(t, ok, "a failed check carries its report: %#v", out.Data)
	assert.Equal(t, "error", checkStatus(t, data, "wus"))
	assert.Equal(t, 1.0, data["errors"])
}

// TestDoctorWithoutAWorkspaceStillRuns: the workspace check is an error and only the git
// checks follow.
func TestDoctorWithoutAWorkspaceStillRuns(t *testing.T) {
	out := nativetest.Call(t, t.TempDir(), "doctor", `{}`)
	assert.Equal(t, tool.CodeCheckFailed, nativetest.Code(t, out))
	assert.Contains(t, out.Metadata, "warnings")
	data, ok := out.Data.(map[string]any)
	require.True(t, ok, "a failed check carries its report: %#v", out.Data)
	assert.Equal(t, []string{"workspace", "git", "git_identity"}, checkNames(t, data))
	assert.Equal(t, "error", checkStatus(t, data, "workspace"))
}
