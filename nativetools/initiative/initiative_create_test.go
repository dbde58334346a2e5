// Scaffolded by `cmdbridge scaffold initiative:create`: the native tool's contract with its legacy command.

package initiative_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/initiative"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestCreateWritesAndCommits: the file in the spec's key order with the defaults (next id,
// kebab slug, P2, draft), one commit of that file alone, and nothing else in the
// initiatives directory.
func TestCreateWritesAndCommits(t *testing.T) {
	ws := nativetest.Workspace(t)
	nativetest.Write(t, ws, "docs/tasks/initiatives/INIT-7.yaml", "id: INIT-7\nslug: old\ntitle: Old\nstatus: open\ncreated: 2026-01-01\n")
	d := nativetest.Data(t, nativetest.Call(t, ws, "initiative:create", `{"title":"Billing, v2!","phase":["Design"],"owner":""}`))
	sha := nativetest.Git(t, ws, "rev-parse", "HEAD")
	assert.Equal(t, map[string]any{"id": "INIT-8", "slug": "billing-v2", "path": "docs/tasks/initiatives/INIT-8.yaml",
		"status": "draft", "commit": map[string]any{"sha": sha, "subject": "docs: create init-8 for billing, v2!", "pushed": false}}, d)
	got, err := os.ReadFile(filepath.Join(ws, "docs", "tasks", "initiatives", "INIT-8.yaml"))
	require.NoError(t, err)
	assert.Equal(t, "id: INIT-8\nslug: billing-v2\ntitle: Billing, v2!\ndescription: \"\"\nstatus: draft\npriority: P2\nowner: \"\"\n"+
		"created: 2026-03-02\nphases:\n  - id: 1\n    title: Design\n    status: pending\nsuccess_metrics: []\nlabels: []\n", string(got))
	assert.Equal(t, "docs/tasks/initiatives/INIT-8.yaml", nativetest.Git(t, ws, "show", "--format=", "--name-only", "HEAD"))
	entries, err := os.ReadDir(filepath.Join(ws, "docs", "tasks", "initiatives"))
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"INIT-7.yaml", "INIT-8.yaml"}, names, "only the initiative file is added")
}

// TestCreateFailures: each refusal has the command's code, or the kernel's schema refuses
// the input (INVALID_INPUT), and nothing is written; a well-formed date that is no real
// day is the handler's USAGE, before the workspace is even looked for.
func TestCreateFailures(t *testing.T) {
	cases := []struct {
		name, input string
		noWS        bool
		code        string
	}{
		{"missing title", `{}`, false, nativetest.InvalidAt("/title")},
		{"priority not a choice", `{"title":"X","priority":"P9"}`, false, nativetest.InvalidAt("/priority")},
		{"empty priority", `{"title":"X","priority":""}`, false, nativetest.InvalidAt("/priority")},
		{"not a date", `{"title":"X","target_date":"2026-3-1"}`, true, nativetest.InvalidAt("/target_date")},
		{"not a calendar day", `{"title":"X","target_date":"2026-02-30"}`, true, tool.CodeUsage},
		{"no workspace", `{"title":"X"}`, true, tool.CodeNoWorkspace},
		{"empty title is refused by the schema", `{"title":""}`, false, nativetest.InvalidAt("/title")},
		{"empty id is given, not the default", `{"title":"X","id":""}`, false, tool.CodeValidation},
		{"bad slug", `{"title":"X","slug":"Bad Slug"}`, false, tool.CodeValidation},
		{"no kebab slug from the title", `{"title":"!!!"}`, false, tool.CodeValidation},
		{"duplicate id", `{"title":"X","id":"INIT-1"}`, false, tool.CodeAlreadyExists},
		{"duplicate slug", `{"title":"X","slug":"first"}`, false, tool.CodeAlreadyExists},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws := nativetest.Workspace(t)
			nativetest.Write(t, ws, "docs/tasks/initiatives/INIT-1.yaml", "id: INIT-1\nslug: first\ntitle: First\nstatus: open\ncreated: 2026-01-01\n")
			dir := ws
			if tc.noWS {
				dir = t.TempDir()
			}
			assert.Equal(t, tc.code, nativetest.Outcome(t, nativetest.Call(t, dir, "initiative:create", tc.input)))
			entries, err := os.ReadDir(filepath.Join(ws, "docs", "tasks", "initiatives"))
			require.NoError(t, err)
			assert.Len(t, entries, 1, "nothing is written")
		})
	}
}
