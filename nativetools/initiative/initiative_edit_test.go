// Scaffolded by `cmdbridge scaffold initiative:edit`: the native tool's contract with its legacy command.

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

// TestEditChangesAndCommits: each given change lands in the file (comments and unknown keys
// kept), changed lists the keys that changed, one commit; a repeated edit changes nothing
// and commits nothing.
func TestEditChangesAndCommits(t *testing.T) {
	ws := nativetest.Workspace(t)
	nativetest.Write(t, ws, "docs/tasks/initiatives/INIT-3.yaml", "id: INIT-3\nslug: public-api\ntitle: Public API\n# note\nstatus: draft\ncreated: 2026-02-27\n"+
		"phases:\n  - id: 4\n    title: Old\n    status: pending\ncustom: kept\n")
	input := `{"id":"public-api","status":"open","add_phase":["New"],"phase_id":4,"phase_status":"done","blocked_by":"INIT-2","blocked_reason":"auth"}`
	d := nativetest.Data(t, nativetest.Call(t, ws, "initiative:edit", input))
	sha := nativetest.Git(t, ws, "rev-parse", "HEAD")
	assert.Equal(t, map[string]any{"id": "INIT-3", "changed": []any{"status", "phases", "blocked_by", "blocked_reason"},
		"commit": map[string]any{"sha": sha, "subject": "docs: edit init-3", "pushed": false}}, d)
	got, err := os.ReadFile(filepath.Join(ws, "docs", "tasks", "initiatives", "INIT-3.yaml"))
	require.NoError(t, err)
	assert.Equal(t, "id: INIT-3\nslug: public-api\ntitle: Public API\n# note\nstatus: open\ncreated: 2026-02-27\n"+
		"phases:\n  - id: 4\n    title: Old\n    status: done\n  - id: 5\n    title: New\n    status: pending\ncustom: kept\n"+
		"blocked_by: INIT-2\nblocked_reason: auth\n", string(got))
	assert.Equal(t, "", nativetest.Git(t, ws, "status", "--porcelain"))

	d = nativetest.Data(t, nativetest.Call(t, ws, "initiative:edit", `{"id":"INIT-3","status":"open","blocked_by":"INIT-2"}`))
	assert.Equal(t, map[string]any{"id": "INIT-3", "changed": []any{}, "commit": nil}, d)
	assert.Equal(t, sha, nativetest.Git(t, ws, "rev-parse", "HEAD"), "no commit")
}

// TestEditFailures: each refusal has the command's code, or the kernel's schema refuses
// the input (INVALID_INPUT: a rule between properties is refused at "/"), and nothing
// changes; a well-formed date that is no real day is the handler's USAGE.
func TestEditFailures(t *testing.T) {
	cases := []struct {
		name, input string
		noWS        bool
		code        string
	}{
		{"no change", `{"id":"INIT-3","unblock":false}`, false, nativetest.InvalidAt("/")},
		{"missing id", `{"title":"x"}`, false, nativetest.InvalidAt("/id")},
		{"phase id alone", `{"id":"INIT-3","phase_id":1}`, false, nativetest.InvalidAt("/")},
		{"phase status alone", `{"id":"INIT-3","phase_status":"done","title":"x"}`, false, nativetest.InvalidAt("/")},
		{"reason without blocked_by", `{"id":"INIT-3","blocked_reason":"r","title":"x"}`, false, nativetest.InvalidAt("/")},
		{"unblock with blocked_by", `{"id":"INIT-3","blocked_by":"x","unblock":true}`, true, nativetest.InvalidAt("/")},
		{"status not a choice", `{"id":"INIT-3","status":"finished"}`, false, nativetest.InvalidAt("/status")},
		{"not a date form", `{"id":"INIT-3","target_date":"2026-1-01"}`, false, nativetest.InvalidAt("/target_date")},
		{"not a date", `{"id":"INIT-3","target_date":"2026-13-01"}`, false, tool.CodeUsage},
		{"no workspace", `{"id":"INIT-3","title":"x"}`, true, tool.CodeNoWorkspace},
		{"unknown initiative", `{"id":"nope","title":"x"}`, false, tool.CodeNotFound},
		{"unknown phase after a change", `{"id":"INIT-3","title":"x","phase_id":2,"phase_status":"done"}`, false, tool.CodeNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws := nativetest.Workspace(t)
			nativetest.Write(t, ws, "docs/tasks/initiatives/INIT-3.yaml", "id: INIT-3\nslug: public-api\ntitle: Public API\nstatus: draft\ncreated: 2026-02-27\n")
			nativetest.Git(t, ws, "add", "-A")
			nativetest.Git(t, ws, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "fixtures")
			dir := ws
			if tc.noWS {
				dir = t.TempDir()
			}
			assert.Equal(t, tc.code, nativetest.Outcome(t, nativetest.Call(t, dir, "initiative:edit", tc.input)))
			assert.Equal(t, "", nativetest.Git(t, ws, "status", "--porcelain"), "nothing is written")
		})
	}
}
