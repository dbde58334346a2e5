// Scaffolded by `cmdbridge scaffold workspace:init`: the native tool's contract with its legacy command.

package workspace_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/workspace"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/workspace"
)

// TestInitSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestInitSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Default.Lookup("workspace:init")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("workspace:init")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestInitDecodesFullInput: every property decodes into InitInput and survives the round trip.
func TestInitDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("workspace:init")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"force":true,"name":"x-name","output":"x-output","yes":true}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(workspace.InitInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}
