// Scaffolded by `cmdbridge scaffold state:cleanup`: the native tool's contract with its legacy command.

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

// TestCleanupRunsEachStep: every step reports in a dry run and writes nothing; the
// events of a WU done long ago move to their month's archive, committed; one step alone
// leaves the others null.
func TestCleanupRunsEachStep(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "docs/tasks/wu/WU-1.yaml", "id: WU-1\ntitle: Shipped long ago\nlane: 'Core: API'\n"+
		"status: done\ncreated: 2025-09-28\ndescription: ''\nacceptance: []\n")
	events := `{"type":"claim","wuId":"WU-1","timestamp":"2025-10-01T10:00:00.000Z","lane":"Core: API","title":"Shipped long ago"}
{"type":"complete","wuId":"WU-1","timestamp":"2025-10-15T10:00:00.000Z"}
`
	nativetest.Write(t, root, ".lumenflow/state/wu-events.jsonl", events)
	nativetest.Git(t, root, "add", "-A")
	nativetest.Git(t, root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "wus")
	archive := filepath.Join(root, ".lumenflow", "archive", "wu-events-2025-10.jsonl")

	data := nativetest.Data(t, nativetest.Call(t, root, "state:cleanup", `{"dry_run":true}`))
	assert.Equal(t, map[string]any{"removed": 0.0, "kept": 0.0}, data["signals"])
	assert.Equal(t, map[string]any{"archived": 2.0, "files": []any{".lumenflow/archive/wu-events-2025-10.jsonl"}}, data["events"])
	assert.Nil(t, data["commit"])
	assert.NoFileExists(t, archive, "a dry run writes nothing")

	data = nativetest.Data(t, nativetest.Call(t, root, "state:cleanup", `{"events_only":true}`))
	assert.Nil(t, data["signals"])
	assert.Nil(t, data["memory"])
	require.NotNil(t, data["commit"])
	assert.Equal(t, "chore: lumenflow state cleanup [skip ci]", data["commit"].(map[string]any)["subject"])
	b, err := os.ReadFile(archive)
	require.NoError(t, err)
	assert.Equal(t, events, string(b))
}

// TestCleanupFailures: the schema refuses two only-flags together (INVALID_INPUT, a rule
// between properties) before the handler runs; a failing step is a warning and the
// others still run; outside a workspace NO_WORKSPACE.
func TestCleanupFailures(t *testing.T) {
	out := nativetest.Call(t, t.TempDir(), "state:cleanup", `{"memory_only":true,"events_only":true}`)
	nativetest.Refused(t, out, "/")
	assert.Equal(t, []string{"memory_only", "events_only"}, out.Error.Details.(map[string]any)["properties"])
	out = nativetest.Call(t, t.TempDir(), "state:cleanup", `{"dry_run":true}`)
	assert.Equal(t, tool.CodeNoWorkspace, nativetest.Code(t, out))

	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "workspace.yaml", "id: acme\nsoftware_delivery:\n  memory:\n    sessionTtl: soon\n")
	out = nativetest.Call(t, root, "state:cleanup", `{"dry_run":true}`)
	data := nativetest.Data(t, out)
	assert.Nil(t, data["memory"])
	assert.NotNil(t, data["signals"])
	assert.NotNil(t, data["events"])
	warnings := out.Metadata["warnings"].([]string)
	require.Len(t, warnings, 1)
	assert.Contains(t, warnings[0], "memory step failed: ")
}
