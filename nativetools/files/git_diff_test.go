// Scaffolded by `cmdbridge scaffold git:diff`: the native tool's contract with its legacy command.

package files_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/files"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/files"
)

// TestDiffSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestDiffSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Default.Lookup("git:diff")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("git:diff")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestDiffDecodesFullInput: every property decodes into DiffInput and survives the round trip.
func TestDiffDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("git:diff")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"name_only":true,"path":"x-path","ref":"x-ref","staged":true,"stat":true}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(files.DiffInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}
