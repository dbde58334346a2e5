// Scaffolded by `cmdbridge scaffold mem:signal`: the native tool's contract with its legacy command.

package memory_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/nativetools/memory"
	"github.com/cmdbridge/cmdbridge/nativetools/schematest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestSignalSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestSignalSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Lookup("mem:signal")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("mem:signal")
	require.True(t, ok, "native tool not registered")
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestSignalDecodesFullInput: every property decodes into SignalInput and survives the round trip.
func TestSignalDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("mem:signal")
	require.True(t, ok, "native tool not registered")
	raw, err := json.Marshal(schematest.FullInput(nt.Spec.InputSchema))
	require.NoError(t, err)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(memory.SignalInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}

// TestSignalAppends: one signal appended with its message trimmed and the command's
// defaults; without wu the session's WU is used.
func TestSignalAppends(t *testing.T) {
	root := nativetest.Workspace(t)
	data := nativetest.Data(t, nativetest.Call(t, root, "mem:signal", `{"message":"  API frozen  ","wu":"WU-1","lane":"Core: API"}`))
	sig := data["signal"].(map[string]any)
	assert.Equal(t, "API frozen", sig["message"])
	assert.Equal(t, delivery.DefaultSignalType, sig["type"])
	assert.Equal(t, delivery.DefaultSignalSender, sig["sender"])
	assert.Equal(t, "WU-1", sig["wu_id"])
	assert.Contains(t, read(t, root, delivery.SignalsFile), `"id":"`+sig["id"].(string)+`"`)

	nativetest.Write(t, root, delivery.SessionFile, session)
	data = nativetest.Data(t, nativetest.Call(t, root, "mem:signal", `{"message":"handoff","type":"handoff","sender":"ada","target_agent":"reviewer"}`))
	sig = data["signal"].(map[string]any)
	assert.Equal(t, "WU-7", sig["wu_id"])
	assert.Equal(t, "handoff", sig["type"])
	assert.Equal(t, "reviewer", sig["target_agent"])
}

// TestSignalFailures: the command's codes, in its order (argv, then message, then workspace).
func TestSignalFailures(t *testing.T) {
	assertFailures(t, "mem:signal", `{"message":"x"}`, []failure{
		{"missing message", `{}`, tool.CodeUsage},
		{"blank message", `{"message":"   "}`, tool.CodeValidation},
		{"bad wu", `{"message":"x","wu":"12"}`, tool.CodeUsage},
		{"bad wu before missing message", `{"wu":""}`, tool.CodeUsage},
	})
}
