// Scaffolded by `cmdbridge scaffold wu:create`: the native tool's contract with its legacy command.

package wu_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	nt "github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestCreateWritesCommitsAndWarns: the WU file, the create event and one commit with the
// call's git identity (GIT_CONFIG_GLOBAL=/dev/null: the §2.4 fallback, not the host's
// user), and an unknown dependency as a warning in metadata.
func TestCreateWritesCommitsAndWarns(t *testing.T) {
	ws := nt.Workspace(t)
	out := nt.Call(t, ws, "wu:create", input(t, validWU, map[string]any{"blocked_by": []string{"WU-9"}, "priority": "P1"}))
	d := nt.Data(t, out)
	sha := nt.Git(t, ws, "rev-parse", "HEAD")
	assert.Equal(t, map[string]any{"id": "WU-1", "path": "docs/tasks/wu/WU-1.yaml", "lane": "Core: API",
		"type": "feature", "priority": "P1", "status": "ready", "initiative": nil,
		"commit": map[string]any{"sha": sha, "subject": "docs: create wu-1 for Add health endpoint", "pushed": false}}, d)
	assert.Equal(t, []string{"blocked_by WU-9 does not exist"}, out.Metadata["warnings"])
	assert.Equal(t, "delivery <delivery@localhost> 2026-03-02T18:37:08+00:00",
		nt.Git(t, ws, "log", "-1", "--format=%an <%ae> %cI"))
	assert.Equal(t, "", nt.Git(t, ws, "status", "--porcelain"), "everything written is committed")
	yaml, err := os.ReadFile(filepath.Join(ws, "docs", "tasks", "wu", "WU-1.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(yaml), "blocked_by:\n  - WU-9\n")
	events, err := os.ReadFile(filepath.Join(ws, ".lumenflow", "state", "wu-events.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, string(events), `"type":"create","wuId":"WU-1"`)
}

// TestCreateFailures: the schema refuses the argv problems (INVALID_INPUT at the
// property, "/" for the phase-requires-initiative rule) before the workspace is even
// looked for; the rest have the command's codes. A phase with an empty initiative passes
// the rule (the initiative is given) and is the operation's USAGE, after the workspace,
// as in the command.
func TestCreateFailures(t *testing.T) {
	cases := []struct {
		name       string
		extra      map[string]any
		noWS       bool
		code, path string
	}{
		{"missing lane", map[string]any{"lane": nil}, false, tool.CodeInvalidInput, "/lane"},
		{"missing title", map[string]any{"title": nil}, false, tool.CodeInvalidInput, "/title"},
		{"empty id", map[string]any{"id": ""}, false, tool.CodeInvalidInput, "/id"},
		{"malformed blocked_by", map[string]any{"blocked_by": []string{"nope"}}, false, tool.CodeInvalidInput, "/blocked_by/0"},
		{"type not a choice", map[string]any{"type": "epic"}, false, tool.CodeInvalidInput, "/type"},
		{"empty priority", map[string]any{"priority": ""}, false, tool.CodeInvalidInput, "/priority"},
		{"phase zero", map[string]any{"phase": 0, "initiative": "i"}, false, tool.CodeInvalidInput, "/phase"},
		{"phase without initiative, no workspace", map[string]any{"phase": 1}, true, tool.CodeInvalidInput, "/"},
		{"phase with an empty initiative", map[string]any{"phase": 1, "initiative": ""}, false, tool.CodeUsage, ""},
		{"phase with an empty initiative, no workspace", map[string]any{"phase": 1, "initiative": ""}, true, tool.CodeNoWorkspace, ""},
		{"no workspace", nil, true, tool.CodeNoWorkspace, ""},
		{"empty lane is refused by the schema", map[string]any{"lane": ""}, false, tool.CodeInvalidInput, "/lane"},
		{"blank title is refused by the schema", map[string]any{"title": " "}, false, tool.CodeInvalidInput, "/title"},
		{"strict rules", map[string]any{"description": "short"}, false, tool.CodeValidation, ""},
		{"unknown initiative", map[string]any{"initiative": "nope"}, false, tool.CodeNotFound, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws := nt.Workspace(t)
			dir := ws
			if tc.noWS {
				dir = t.TempDir()
			}
			failedWith(t, nt.Call(t, dir, "wu:create", input(t, validWU, tc.extra)), tc.code, tc.path)
			assert.NoFileExists(t, filepath.Join(ws, "docs", "tasks", "wu", "WU-1.yaml"), "nothing is written")
		})
	}
	t.Run("existing id", func(t *testing.T) {
		ws := nt.Workspace(t)
		id := create(t, ws)
		assert.Equal(t, tool.CodeAlreadyExists, nt.Code(t, nt.Call(t, ws, "wu:create", input(t, validWU, map[string]any{"id": id}))))
	})
}
