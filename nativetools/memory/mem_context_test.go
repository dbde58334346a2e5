// Scaffolded by `cmdbridge scaffold mem:context`: the native tool's contract with its legacy command.

package memory_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestContextRendersSections: the project, WU and discovery sections, the lane filter on
// project nodes (archived ones hidden, ephemeral ones shown), and the size cap with its
// truncation marker.
func TestContextRendersSections(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, ".lumenflow/memory/memory.jsonl", memoryNodes)

	data := nativetest.Data(t, nativetest.Call(t, root, "mem:context", `{"wu":"WU-1","lane":"Docs"}`))
	assert.Equal(t, "## Memory context for WU-1\n### Project\n- [note] any lane\n### This WU\n"+
		"- [note] no priority v2\n- [note] ephemeral\n- [note] blocked by mem-0001\n- [note] has blocked_by\n"+
		"### Discoveries\n- [discovery] late P1\n- [discovery] urgent\n", data["context"])
	assert.Equal(t, false, data["truncated"])
	assert.Equal(t, []any{"mem-0010", "mem-0002", "mem-0004", "mem-0005", "mem-0007", "mem-0001", "mem-0003"}, data["node_ids"])

	data = nativetest.Data(t, nativetest.Call(t, root, "mem:context", `{"wu":"WU-2","max_size":40}`))
	assert.Equal(t, "## Memory context for WU-2\n### Project\n(truncated)\n", data["context"], "39 bytes fit, the next line does not")
	assert.Equal(t, true, data["truncated"])
	assert.Equal(t, []any{}, data["node_ids"])

	nativetest.Write(t, root, ".lumenflow/memory/memory.jsonl", "")
	data = nativetest.Data(t, nativetest.Call(t, root, "mem:context", `{"wu":"WU-1"}`))
	assert.Equal(t, "", data["context"], "nothing to show is empty")
}

// TestContextFailures: the schema refuses a missing or malformed wu and a max_size below 1
// before the handler runs; a cap of the wrong type in the configuration is CONFIG_INVALID.
func TestContextFailures(t *testing.T) {
	assertFailures(t, "mem:context", `{"wu":"WU-1"}`, []failure{
		{"missing wu", `{}`, tool.CodeInvalidInput, "/wu"},
		{"bad wu", `{"wu":"WU-"}`, tool.CodeInvalidInput, "/wu"},
		{"zero max_size", `{"wu":"WU-1","max_size":0}`, tool.CodeInvalidInput, "/max_size"},
	})
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "workspace.yaml", "id: acme\nsoftware_delivery:\n  memory:\n    delegation_context_max_size: big\n")
	out := nativetest.Call(t, root, "mem:context", `{"wu":"WU-1"}`)
	assert.Equal(t, tool.CodeConfigInvalid, nativetest.Code(t, out))
}
