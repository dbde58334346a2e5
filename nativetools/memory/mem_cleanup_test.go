// Scaffolded by `cmdbridge scaffold mem:cleanup`: the native tool's contract with its legacy command.

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

// TestCleanupSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestCleanupSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Default.Lookup("mem:cleanup")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("mem:cleanup")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestCleanupDecodesFullInput: every property decodes into CleanupInput and survives the round trip.
func TestCleanupDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("mem:cleanup")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"dry_run":true,"session_id":"x-session_id","ttl":"x-ttl"}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(memory.CleanupInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}

// TestCleanup: a dry run names what a run removes (the deleted node and, with a short
// TTL, the old ones) and writes nothing; the run compacts memory.jsonl to what it kept; the
// schema refuses a TTL that is not a duration.
func TestCleanup(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, ".lumenflow/memory/memory.jsonl", deleteNodes)
	dry := nativetest.Data(t, nativetest.Call(t, root, "mem:cleanup", `{"dry_run":true,"ttl":"1h"}`))
	assert.Equal(t, deleteNodes, read(t, root, ".lumenflow/memory/memory.jsonl"), "a dry run writes nothing")
	assert.Contains(t, dry["removed"], "mem-0005", "the deleted node goes")
	run := nativetest.Data(t, nativetest.Call(t, root, "mem:cleanup", `{"ttl":"1h"}`))
	assert.Equal(t, dry["removed"], run["removed"])
	after := read(t, root, ".lumenflow/memory/memory.jsonl")
	assert.NotContains(t, after, "mem-0005")
	assert.Equal(t, run["bytes_after"], float64(len(after)))
	assert.Equal(t, tool.CodeInvalidInput, nativetest.Code(t, nativetest.Call(t, root, "mem:cleanup", `{"ttl":"7"}`)))
}
