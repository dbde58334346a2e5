// Scaffolded by `cmdbridge scaffold mem:start`: the native tool's contract with its legacy command.

package memory_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestStartAppendsASessionNode: a session node (lifecycle wu) with the flag defaults, a
// new session uuid and its metadata; a given "" is recorded as "", not defaulted; each
// call appends one line.
func TestStartAppendsASessionNode(t *testing.T) {
	root := nativetest.Workspace(t)
	node := nativetest.Data(t, nativetest.Call(t, root, "mem:start", `{"wu":"WU-1"}`))["node"].(map[string]any)
	assert.Equal(t, "session", node["type"])
	assert.Equal(t, "wu", node["lifecycle"])
	assert.Equal(t, "WU-1", node["wu_id"])
	assert.Equal(t, "Session started for WU-1. Agent: unknown, Context: full", node["content"])
	assert.Equal(t, map[string]any{"agentType": "unknown", "contextTier": "full"}, node["metadata"])
	assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, node["session_id"])
	assert.Regexp(t, `^mem-[0-9a-f]{4}$`, node["id"])

	second := nativetest.Data(t, nativetest.Call(t, root, "mem:start",
		`{"wu":"WU-2","agent_type":"","context_tier":"minimal"}`))["node"].(map[string]any)
	assert.Equal(t, "Session started for WU-2. Agent: , Context: minimal", second["content"])
	assert.Equal(t, map[string]any{"agentType": "", "contextTier": "minimal"}, second["metadata"])
	assert.NotEqual(t, node["id"], second["id"])

	lines := strings.Split(strings.TrimSuffix(read(t, root, ".lumenflow/memory/memory.jsonl"), "\n"), "\n")
	require.Len(t, lines, 2)
	assert.Contains(t, lines[0], `"id":"`+node["id"].(string)+`"`)
	assert.Contains(t, lines[1], `"id":"`+second["id"].(string)+`"`)
}

// TestStartFailures: the schema refuses a missing, empty or malformed wu and an unknown
// property before the handler runs; nothing is written.
func TestStartFailures(t *testing.T) {
	assertFailures(t, "mem:start", `{"wu":"WU-1"}`, []failure{
		{"missing wu", `{}`, tool.CodeInvalidInput, "/wu"},
		{"empty wu", `{"wu":""}`, tool.CodeInvalidInput, "/wu"},
		{"malformed wu", `{"wu":"wu-1","agent_type":"x"}`, tool.CodeInvalidInput, "/wu"},
		{"unknown property", `{"wu":"WU-1","agent":"x"}`, tool.CodeInvalidInput, "/agent"},
	})
}
