// Scaffolded by `cmdbridge scaffold mem:export`: the native tool's contract with its legacy command.

package memory_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestExportFilters: visible nodes by created_at then id, narrowed by wu, type and
// lifecycle; without wu, the current session's WU.
func TestExportFilters(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, ".lumenflow/memory/memory.jsonl", memoryNodes)

	data := nativetest.Data(t, nativetest.Call(t, root, "mem:export", `{}`))
	assert.Len(t, data["nodes"], 10, "every node not deleted, archived ones included")
	data = nativetest.Data(t, nativetest.Call(t, root, "mem:export", `{"wu":"WU-1","type":"discovery"}`))
	assert.Equal(t, []string{"mem-0001", "mem-0003"}, nodeIDs(t, data["nodes"]))
	data = nativetest.Data(t, nativetest.Call(t, root, "mem:export", `{"lifecycle":"project"}`))
	assert.Equal(t, []string{"mem-0009", "mem-0010"}, nodeIDs(t, data["nodes"]))

	nativetest.Write(t, root, ".lumenflow/sessions/current.json", session)
	data = nativetest.Data(t, nativetest.Call(t, root, "mem:export", `{}`))
	assert.Equal(t, []any{}, data["nodes"], "the session's WU-7 has no nodes")
	data = nativetest.Data(t, nativetest.Call(t, root, "mem:export", `{"wu":"WU-2"}`))
	assert.Equal(t, []string{"mem-0008"}, nodeIDs(t, data["nodes"]))
}

// TestExportFailures: the schema refuses a malformed wu or lifecycle ("" included) before
// the handler runs.
func TestExportFailures(t *testing.T) {
	assertFailures(t, "mem:export", `{}`, []failure{
		{"bad wu", `{"wu":"WU-x"}`, tool.CodeInvalidInput, "/wu"},
		{"empty wu", `{"wu":""}`, tool.CodeInvalidInput, "/wu"},
		{"bad lifecycle", `{"lifecycle":"forever"}`, tool.CodeInvalidInput, "/lifecycle"},
		{"empty lifecycle", `{"lifecycle":""}`, tool.CodeInvalidInput, "/lifecycle"},
	})
}
