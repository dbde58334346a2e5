// Scaffolded by `cmdbridge scaffold mem:ready`: the native tool's contract with its legacy command.

package memory_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestReadyListsOpenNodes: open nodes of the WU by priority, then created_at; closed,
// ephemeral and blocked nodes are left out; type narrows the list.
func TestReadyListsOpenNodes(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, ".lumenflow/memory/memory.jsonl", memoryNodes)
	nativetest.Write(t, root, ".lumenflow/memory/relationships.jsonl",
		`{"from_id":"mem-0001","to_id":"mem-0005","type":"blocks","created_at":"2026-03-01T07:00:00.000Z"}`+"\n")

	data := nativetest.Data(t, nativetest.Call(t, root, "mem:ready", `{"wu":"WU-1"}`))
	assert.Equal(t, "WU-1", data["wu"])
	assert.Equal(t, []string{"mem-0003", "mem-0001", "mem-0002"}, nodeIDs(t, data["nodes"]))

	data = nativetest.Data(t, nativetest.Call(t, root, "mem:ready", `{"wu":"WU-1","type":"note"}`))
	assert.Equal(t, []string{"mem-0002"}, nodeIDs(t, data["nodes"]))

	data = nativetest.Data(t, nativetest.Call(t, root, "mem:ready", `{"wu":"WU-9"}`))
	assert.Equal(t, []any{}, data["nodes"], "nothing ready is an empty list")
}

// TestReadyFailures: the schema refuses a missing or malformed wu and a type that is not
// one of the choices ("" included) before the handler runs.
func TestReadyFailures(t *testing.T) {
	assertFailures(t, "mem:ready", `{"wu":"WU-1"}`, []failure{
		{"missing wu", `{}`, tool.CodeInvalidInput, "/wu"},
		{"empty wu", `{"wu":""}`, tool.CodeInvalidInput, "/wu"},
		{"bad wu", `{"wu":"WU-x"}`, tool.CodeInvalidInput, "/wu"},
		{"bad type", `{"wu":"WU-1","type":"bogus"}`, tool.CodeInvalidInput, "/type"},
		{"empty type", `{"wu":"WU-1","type":""}`, tool.CodeInvalidInput, "/type"},
	})
}
