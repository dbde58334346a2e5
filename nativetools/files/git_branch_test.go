// Scaffolded by `cmdbridge scaffold git:branch`: the native tool's contract with its legacy command.

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

// TestBranchSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestBranchSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Default.Lookup("git:branch")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("git:branch")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestBranchDecodesFullInput: every property decodes into BranchInput and survives the round trip.
func TestBranchDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("git:branch")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"all":true,"contains":"x-contains","remotes":true,"show_current":true}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(files.BranchInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}
