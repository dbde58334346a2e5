// Scaffolded by `cmdbridge scaffold backlog:prune`: the native tool's contract with its legacy command.

package state_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/state"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestPruneTagsStaleWUs: at DELIVERY_NOW (2026-03-02) a ready WU created 40 days ago is
// stale under the 30-day default and reported only in a dry run; execute tags its notes
// and commits; an explicit 0 threshold is a threshold, not the default.
func TestPruneTagsStaleWUs(t *testing.T) {
	root := nativetest.Workspace(t)
	spec := "id: WU-1\ntitle: Old idea\nlane: 'Core: API'\nstatus: ready\ncreated: 2026-01-21\ndescription: ''\nacceptance: []\n"
	nativetest.Write(t, root, "docs/tasks/wu/WU-1.yaml", spec)
	nativetest.Write(t, root, "docs/tasks/wu/WU-2.yaml", "id: WU-2\ntitle: Fresh\nlane: 'Core: API'\nstatus: ready\ncreated: 2026-03-01\ndescription: ''\nacceptance: []\n")
	nativetest.Git(t, root, "add", "-A")
	nativetest.Git(t, root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "wus")
	path := filepath.Join(root, "docs", "tasks", "wu", "WU-1.yaml")

	data := nativetest.Data(t, nativetest.Call(t, root, "backlog:prune", `{}`))
	assert.Equal(t, []any{map[string]any{"id": "WU-1", "status": "ready", "days": 40.0}}, data["stale"])
	assert.Equal(t, 1.0, data["healthy"])
	assert.Equal(t, false, data["executed"])
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, spec, string(b), "a dry run writes nothing")

	data = nativetest.Data(t, nativetest.Call(t, root, "backlog:prune", `{"stale_days_ready":0,"stale_days_in_progress":0}`))
	assert.Len(t, data["stale"], 2, "a 1-day-old ready WU is stale after 0 days")

	data = nativetest.Data(t, nativetest.Call(t, root, "backlog:prune", `{"execute":true}`))
	require.NotNil(t, data["commit"])
	assert.Equal(t, "chore: backlog:prune tag 1 stale wus", data["commit"].(map[string]any)["subject"])
	b, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(b), "notes: '[2026-03-02] Auto-tagged as stale by backlog:prune'\n")

	data = nativetest.Data(t, nativetest.Call(t, root, "backlog:prune", `{"execute":true}`))
	assert.Nil(t, data["commit"], "the same note is never added twice")

	out := nativetest.Call(t, t.TempDir(), "backlog:prune", `{}`)
	assert.Equal(t, tool.CodeNoWorkspace, nativetest.Code(t, out))
}
