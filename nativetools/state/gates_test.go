// Scaffolded by `cmdbridge scaffold gates`: the native tool's contract with its legacy command.

package state_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/state"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/state"
)

// TestGatesSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestGatesSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Default.Lookup("gates")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("gates")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestGatesDecodesFullInput: every property decodes into GatesInput and survives the round trip.
func TestGatesDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("gates")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"docs_only":true,"only":["x-only"]}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(state.GatesInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}
