// Scaffolded by `cmdbridge scaffold initiative:status`: the native tool's contract with its legacy command.

package initiative_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/initiative"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// initYAML is INIT-3 (slug public-api) with two phases.
const initYAML = `id: INIT-3
slug: public-api
title: Public API v1
status: open
priority: P1
owner: ada@example.com
created: 2026-02-27
phases:
  - id: 1
    title: Endpoints
    status: in_progress
  - id: 2
    title: Docs
    status: pending
wus:
  - WU-1
`

// TestStatusReportsProgress: by id or slug, the initiative with its derived status,
// progress and phased WUs; a WU file that does not parse is a warning and left out.
func TestStatusReportsProgress(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "docs/tasks/initiatives/INIT-3.yaml", initYAML)
	nativetest.Write(t, root, "docs/tasks/wu/WU-1.yaml",
		"id: WU-1\ntitle: Login\nlane: 'Core: API'\nstatus: done\ncreated: 2026-02-01\ndescription: d\nacceptance: []\nphase: 1\n")
	nativetest.Write(t, root, "docs/tasks/wu/WU-2.yaml",
		"id: WU-2\ntitle: Endpoints\nlane: 'Core: API'\nstatus: blocked\ncreated: 2026-02-01\ndescription: d\nacceptance: []\ninitiative: public-api\n")
	nativetest.Write(t, root, "docs/tasks/wu/WU-3.yaml", "id: [broken\n")

	for _, ref := range []string{"INIT-3", "public-api"} {
		out := nativetest.Call(t, root, "initiative:status", `{"id":"`+ref+`"}`)
		data := nativetest.Data(t, out)
		assert.Equal(t, "INIT-3", data["id"])
		assert.Equal(t, "in_progress", data["status"])
		assert.Equal(t, "open", data["raw_status"])
		assert.Equal(t, map[string]any{"percentage": 50.0, "done": 1.0, "in_progress": 0.0, "blocked": 1.0,
			"ready": 0.0, "total": 2.0}, data["progress"])
		phases := data["phases"].([]any)
		require.Len(t, phases, 2)
		assert.Equal(t, []any{"WU-1"}, phases[0].(map[string]any)["wus"])
		assert.Equal(t, []any{}, phases[1].(map[string]any)["wus"])
		assert.Nil(t, data["target_date"], "absent values are null")
		warnings, ok := out.Metadata["warnings"].([]string)
		require.True(t, ok, "warnings listed: %#v", out.Metadata)
		require.Len(t, warnings, 1)
		assert.Contains(t, warnings[0], "WU-3")
	}
}

// TestStatusFailures: the kernel's schema refuses a missing reference (INVALID_INPUT),
// inside a workspace or not; an empty one is USAGE before the workspace is opened (the
// handler's check); an unknown one is NOT_FOUND.
func TestStatusFailures(t *testing.T) {
	root := nativetest.Workspace(t)
	cases := []struct {
		name, dir, input, code string
	}{
		{"missing id", root, `{}`, nativetest.InvalidAt("/id")},
		{"empty id", root, `{"id":""}`, nativetest.InvalidAt("/id")},
		{"missing id outside a workspace", t.TempDir(), `{}`, nativetest.InvalidAt("/id")},
		{"unknown id", root, `{"id":"INIT-99"}`, tool.CodeNotFound},
		{"no workspace", t.TempDir(), `{"id":"INIT-3"}`, tool.CodeNoWorkspace},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := nativetest.Call(t, tc.dir, "initiative:status", tc.input)
			assert.Equal(t, tc.code, nativetest.Outcome(t, out))
			if out.Error.Code != tool.CodeInvalidInput { // a refusal comes before the handler
				assert.Contains(t, out.Metadata, "warnings")
			}
		})
	}
}
