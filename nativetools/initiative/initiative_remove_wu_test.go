// Scaffolded by `cmdbridge scaffold initiative:remove-wu`: the native tool's contract with its legacy command.

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

// TestRemoveWUUnlinksBothSidesAndCommits: the id leaves the wus list (an empty list stays
// a list), the WU loses initiative and phase, one commit of both files.
func TestRemoveWUUnlinksBothSidesAndCommits(t *testing.T) {
	ws := initWithWUs(t)
	nativetest.Data(t, nativetest.Call(t, ws, "initiative:add-wu", `{"initiative":"INIT-3","wu":["WU-1"],"phase":1}`))
	d := nativetest.Data(t, nativetest.Call(t, ws, "initiative:remove-wu", `{"initiative":"public-api","wu":"WU-1"}`))
	sha := nativetest.Git(t, ws, "rev-parse", "HEAD")
	assert.Equal(t, map[string]any{"initiative": "INIT-3", "wu": "WU-1", "removed": true,
		"commit": map[string]any{"sha": sha, "subject": "docs: unlink wu-1 from init-3", "pushed": false}}, d)
	ini, err := os.ReadFile(filepath.Join(ws, "docs", "tasks", "initiatives", "INIT-3.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(ini), "wus: []\n")
	wu1, err := os.ReadFile(filepath.Join(ws, "docs", "tasks", "wu", "WU-1.yaml"))
	require.NoError(t, err)
	assert.NotContains(t, string(wu1), "initiative")
	assert.NotContains(t, string(wu1), "phase")
	assert.Equal(t, "docs/tasks/initiatives/INIT-3.yaml\ndocs/tasks/wu/WU-1.yaml", nativetest.Git(t, ws, "show", "--format=", "--name-only", "HEAD"))
	assert.Equal(t, "", nativetest.Git(t, ws, "status", "--porcelain"))
}

// TestRemoveWUFailures: each refusal has the command's code, or the kernel's schema
// refuses the input (INVALID_INPUT), and nothing changes.
func TestRemoveWUFailures(t *testing.T) {
	cases := []struct {
		name, input string
		code        string
	}{
		{"missing wu", `{"initiative":"INIT-3"}`, nativetest.InvalidAt("/wu")},
		{"missing initiative", `{"wu":"WU-1"}`, nativetest.InvalidAt("/initiative")},
		{"empty wu", `{"initiative":"INIT-3","wu":""}`, nativetest.InvalidAt("/wu")},
		{"not linked", `{"initiative":"INIT-3","wu":"WU-1"}`, tool.CodeNotFound},
		{"linked elsewhere", `{"initiative":"INIT-3","wu":"WU-3"}`, tool.CodeNotFound},
		{"unknown wu", `{"initiative":"INIT-3","wu":"WU-9"}`, tool.CodeNotFound},
		{"empty initiative", `{"initiative":"","wu":"WU-1"}`, tool.CodeNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ws := initWithWUs(t)
			head := nativetest.Git(t, ws, "rev-parse", "HEAD")
			assert.Equal(t, tc.code, nativetest.Outcome(t, nativetest.Call(t, ws, "initiative:remove-wu", tc.input)))
			assert.Equal(t, head, nativetest.Git(t, ws, "rev-parse", "HEAD"))
			assert.Equal(t, "", nativetest.Git(t, ws, "status", "--porcelain"), "nothing is written")
		})
	}
}
