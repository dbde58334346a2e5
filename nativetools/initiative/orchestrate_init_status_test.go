// Scaffolded by `cmdbridge scaffold orchestrate:init-status`: the native tool's contract with its legacy command.

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

// TestInitStatusListsWUsByPhase: by id or slug, the progress and the WUs sorted by
// phase, then id, unphased last; a WU file that does not parse is a warning and left out.
func TestInitStatusListsWUsByPhase(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "docs/tasks/initiatives/INIT-3.yaml", initYAML)
	wu := "id: %s\ntitle: %s\nlane: 'Core: API'\nstatus: %s\ncreated: 2026-02-01\ndescription: d\nacceptance: []\ninitiative: INIT-3\n%s"
	nativetest.Write(t, root, "docs/tasks/wu/WU-1.yaml", fmt.Sprintf(wu, "WU-1", "Login", "done", "phase: 2\n"))
	nativetest.Write(t, root, "docs/tasks/wu/WU-2.yaml", fmt.Sprintf(wu, "WU-2", "Endpoints", "in_progress", "phase: 1\n"))
	nativetest.Write(t, root, "docs/tasks/wu/WU-3.yaml", fmt.Sprintf(wu, "WU-3", "Docs", "ready", ""))
	nativetest.Write(t, root, "docs/tasks/wu/WU-4.yaml", "id: [broken\n")

	for _, ref := range []string{"INIT-3", "public-api"} {
		out := nativetest.Call(t, root, "orchestrate:init-status", `{"initiative":"`+ref+`"}`)
		data := nativetest.Data(t, out)
		assert.Equal(t, "INIT-3", data["id"])
		assert.Equal(t, "Public API v1", data["title"])
		assert.Equal(t, map[string]any{"percentage": 33.0, "done": 1.0, "in_progress": 1.0, "blocked": 0.0,
			"ready": 1.0, "total": 3.0}, data["progress"])
		var rows []string
		for _, r := range data["wus"].([]any) {
			m := r.(map[string]any)
			rows = append(rows, fmt.Sprintf("%s@%v:%s", m["id"], m["phase"], m["status"]))
		}
		assert.Equal(t, []string{"WU-2@1:in_progress", "WU-1@2:done", "WU-3@<nil>:ready"}, rows)
		warnings, ok := out.Metadata["warnings"].([]string)
		require.True(t, ok, "warnings listed: %#v", out.Metadata)
		require.Len(t, warnings, 1)
		assert.Contains(t, warnings[0], "WU-4")
	}
}

// TestInitStatusFailures: the kernel's schema refuses an absent initiative
// (INVALID_INPUT), inside a workspace or not; an unknown or empty one is NOT_FOUND.
func TestInitStatusFailures(t *testing.T) {
	root := nativetest.Workspace(t)
	cases := []struct {
		name, dir, input, code string
	}{
		{"missing initiative", root, `{}`, nativetest.InvalidAt("/initiative")},
		{"missing initiative outside a workspace", t.TempDir(), `{}`, nativetest.InvalidAt("/initiative")},
		{"empty initiative", root, `{"initiative":""}`, tool.CodeNotFound},
		{"unknown initiative", root, `{"initiative":"INIT-99"}`, tool.CodeNotFound},
		{"no workspace", t.TempDir(), `{"initiative":"INIT-3"}`, tool.CodeNoWorkspace},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := nativetest.Call(t, tc.dir, "orchestrate:init-status", tc.input)
			assert.Equal(t, tc.code, nativetest.Outcome(t, out))
			if out.Error.Code != tool.CodeInvalidInput { // a refusal comes before the handler
				assert.Contains(t, out.Metadata, "warnings")
			}
		})
	}
}
