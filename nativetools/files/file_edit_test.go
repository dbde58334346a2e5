// Scaffolded by `cmdbridge scaffold file:edit`: the native tool's contract with its legacy command.

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

// TestEditSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestEditSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Default.Lookup("file:edit")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("file:edit")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestEditDecodesFullInput: every property decodes into EditInput and survives the round trip.
func TestEditDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("file:edit")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"new_string":"x-new_string","old_string":"x-old_string","path":"x-path","replace_all":true}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(files.EditInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}
