// Scaffolded by `cmdbridge scaffold orchestrate:monitor`: the native tool's contract with its legacy command.

package initiative_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/initiative"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/initiative"
)

// TestMonitorSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestMonitorSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Default.Lookup("orchestrate:monitor")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("orchestrate:monitor")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestMonitorDecodesFullInput: every property decodes into MonitorInput and survives the round trip.
func TestMonitorDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("orchestrate:monitor")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"dry_run":true,"recover":true,"signals_only":true,"since":"x-since","threshold":7,"wu":"x-wu"}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(initiative.MonitorInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}
