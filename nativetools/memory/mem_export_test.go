// Scaffolded by `cmdbridge scaffold mem:export`: the native tool's contract with its legacy command.

package memory_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/nativetools/memory"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestExportSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestExportSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Default.Lookup("mem:export")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("mem:export")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestExportDecodesFullInput: every property decodes into ExportInput and survives the round trip.
func TestExportDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("mem:export")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"lifecycle":"ephemeral","type":"x-type","wu":"x-wu"}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(memory.ExportInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}

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

// TestExportFailures: wu and lifecycle forms ("" included) are USAGE before the workspace
// is opened.
func TestExportFailures(t *testing.T) {
	assertFailures(t, "mem:export", `{}`, []failure{
		{"bad wu", `{"wu":"WU-x"}`, tool.CodeUsage},
		{"empty wu", `{"wu":""}`, tool.CodeUsage},
		{"bad lifecycle", `{"lifecycle":"forever"}`, tool.CodeUsage},
		{"empty lifecycle", `{"lifecycle":""}`, tool.CodeUsage},
	})
}
