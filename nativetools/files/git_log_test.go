// Scaffolded by `cmdbridge scaffold git:log`: the native tool's contract with its legacy command.

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

// TestLogSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestLogSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Default.Lookup("git:log")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("git:log")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestLogDecodesFullInput: every property decodes into LogInput and survives the round trip.
func TestLogDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("git:log")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"author":"x-author","max_count":7,"oneline":true,"ref":"x-ref","since":"x-since"}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(files.LogInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}
