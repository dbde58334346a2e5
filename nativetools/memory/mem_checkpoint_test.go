// Scaffolded by `cmdbridge scaffold mem:checkpoint`: the native tool's contract with its legacy command.

package memory_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestCheckpointRecordsNodeAndEvent: a checkpoint on an existing WU is a node and an event;
// without wu the session's WU and session are used, and a WU without a spec gets no event.
func TestCheckpointRecordsNodeAndEvent(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.WU(t, root, "WU-1", "Core: API")

	data := nativetest.Data(t, nativetest.Call(t, root, "mem:checkpoint",
		`{"note":"API done","wu":"WU-1","progress":"handler written","next_steps":"add tests"}`))
	assert.Equal(t, true, data["event_appended"])
	node := data["node"].(map[string]any)
	assert.Equal(t, "Checkpoint: API done", node["content"])
	assert.Equal(t, "WU-1", node["wu_id"])
	assert.Equal(t, "checkpoint", node["type"])
	assert.Contains(t, read(t, root, delivery.MemoryFile), `"id":"`+node["id"].(string)+`"`)
	assert.Contains(t, read(t, root, delivery.EventsFile), `"nextSteps":"add tests"`)

	nativetest.Write(t, root, delivery.SessionFile, session)
	data = nativetest.Data(t, nativetest.Call(t, root, "mem:checkpoint", `{"note":"from session"}`))
	assert.Equal(t, false, data["event_appended"], "WU-7 has no spec, so no event")
	node = data["node"].(map[string]any)
	assert.Equal(t, "WU-7", node["wu_id"])
	assert.Equal(t, "0b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", node["session_id"])
}

// TestCheckpointWarnsOnBrokenSession: a session file that does not parse is a warning in
// metadata, and the checkpoint is still recorded.
func TestCheckpointWarnsOnBrokenSession(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, delivery.SessionFile, "not json")
	out := nativetest.Call(t, root, "mem:checkpoint", `{"note":"x"}`)
	nativetest.Data(t, out)
	require.Contains(t, out.Metadata, "warnings")
	assert.Len(t, out.Metadata["warnings"], 1)
}

// TestCheckpointFailures: the schema refuses a missing note and a malformed wu ("" included)
// before the handler runs, a malformed value before a missing one, and a blank note (its
// pattern says non-blank).
func TestCheckpointFailures(t *testing.T) {
	assertFailures(t, "mem:checkpoint", `{"note":"x"}`, []failure{
		{"missing note", `{"wu":"WU-1"}`, tool.CodeInvalidInput, "/note"},
		{"blank note", `{"note":" \t"}`, tool.CodeInvalidInput, "/note"},
		{"bad wu before missing note", `{"wu":"12"}`, tool.CodeInvalidInput, "/wu"},
		{"empty wu", `{"note":"x","wu":""}`, tool.CodeInvalidInput, "/wu"},
	})
}
