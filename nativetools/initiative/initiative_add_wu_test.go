// Scaffolded by `cmdbridge scaffold initiative:add-wu`: the native tool's contract with its legacy command.

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

// initWithWUs is a workspace with INIT-3 (slug public-api), WU-1 and WU-2 free, and WU-3
// linked to another initiative.
func initWithWUs(t *testing.T) string {
	t.Helper()
	ws := nativetest.Workspace(t)
	nativetest.Write(t, ws, "docs/tasks/initiatives/INIT-3.yaml", "id: INIT-3\nslug: public-api\ntitle: Public API\nstatus: open\ncreated: 2026-02-27\nwus: []\n")
	for _, id := range []string{"WU-1", "WU-2", "WU-3"} {
		nativetest.WU(t, ws, id, "Core: API")
	}
	nativetest.Write(t, ws, "docs/tasks/wu/WU-3.yaml", "id: WU-3\ntitle: t\nlane: 'Core: API'\nstatus: ready\ncreated: 2026-02-01\ninitiative: INIT-9\n")
	nativetest.Git(t, ws, "add", "-A")
	nativetest.Git(t, ws, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "fixtures")
	return ws
}

// TestAddWULinksBothSidesAndCommits: each WU gets the initiative's id and the phase, the
// wus list gains them, one commit; linking again is a no-op with no commit.
func TestAddWULinksBothSidesAndCommits(t *testing.T) {
	ws := initWithWUs(t)
	d := nativetest.Data(t, nativetest.Call(t, ws, "initiative:add-wu", `{"initiative":"public-api","wu":["WU-1","WU-2","WU-1"],"phase":2}`))
	sha := nativetest.Git(t, ws, "rev-parse", "HEAD")
	assert.Equal(t, map[string]any{"initiative": "INIT-3", "linked": []any{"WU-1", "WU-2"}, "already_linked": []any{},
		"commit": map[string]any{"sha": sha, "subject": "docs: link 2 wus to init-3", "pushed": false}}, d)
	ini, err := os.ReadFile(filepath.Join(ws, "docs", "tasks", "initiatives", "INIT-3.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(ini), "wus:\n  - WU-1\n  - WU-2\n")
	wu1, err := os.ReadFile(filepath.Join(ws, "docs", "tasks", "wu", "WU-1.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(wu1), "initiative: INIT-3\nphase: 2\n")
	assert.Equal(t, "", nativetest.Git(t, ws, "status", "--porcelain"))

	d = nativetest.Data(t, nativetest.Call(t, ws, "initiative:add-wu", `{"initiative":"INIT-3","wu":["WU-2"]}`))
	assert.Equal(t, map[string]any{"initiative": "INIT-3", "linked": []any{}, "already_linked": []any{"WU-2"}, "commit": nil}, d)
	assert.Equal(t, sha, nativetest.Git(t, ws, "rev-parse", "HEAD"), "no commit")
}

// TestAddWUFailures: each refusal has the command's code, or the kernel's schema refuses
// the input (INVALID_INPUT): a missing, empty or malformed wu list among others; nothing
// changes.
func TestAddWUFailures(t *testing.T) {
	cases := []struct {
		name, input string
		code        string
	}{
		{"missing wu", `{"initiative":"INIT-3"}`, nativetest.InvalidAt("/wu")},
		{"empty wu list", `{"initiative":"INIT-3","wu":[]}`, nativetest.InvalidAt("/wu")},
		{"missing initiative", `{"wu":["WU-1"]}`, nativetest.InvalidAt("/initiative")},
		{"phase zero", `{"initiative":"INIT-3","wu":["WU-1"],"phase":0}`, nativetest.InvalidAt("/phase")},
		{"malformed wu", `{"initiative":"INIT-3","wu":["WU-1","wu-2"]}`, nativetest.InvalidAt("/wu/1")},
		{"linked elsewhere", `{"initiative":"INIT-3","wu":["WU-1","WU-3"]}`, tool.CodeValidation},
		{"unknown wu", `{"initiative":"INIT-3","wu":["WU-1","WU-9"]}`, tool.CodeNotFound},
		{"empty initiative", `{"initiative":"","wu":["WU-1"]}`, tool.CodeNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws := initWithWUs(t)
			head := nativetest.Git(t, ws, "rev-parse", "HEAD")
			assert.Equal(t, tc.code, nativetest.Outcome(t, nativetest.Call(t, ws, "initiative:add-wu", tc.input)))
			assert.Equal(t, head, nativetest.Git(t, ws, "rev-parse", "HEAD"))
			assert.Equal(t, "", nativetest.Git(t, ws, "status", "--porcelain"), "nothing is written")
		})
	}
}
