// Scaffolded by `cmdbridge scaffold notes:add`: the native tool's contract with its legacy command.

package notes_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/testdata/codegen/gizmo"
	"github.com/cmdbridge/cmdbridge/testdata/codegen/gizmo/tools"
	"github.com/cmdbridge/cmdbridge/testdata/codegen/golden-gizmo/nativetools/notes"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestAddSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestAddSchemaEqualsAdapter(t *testing.T) {
	c, ok := gizmo.Commands.Lookup("notes:add")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := tools.Registry.Lookup("notes:add")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestAddDecodesFullInput: every property decodes into AddInput and survives the round trip.
func TestAddDecodesFullInput(t *testing.T) {
	nt, ok := tools.Registry.Lookup("notes:add")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"output":"x-output","text":"x-text","upper":true}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(notes.AddInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}

// TestAddNotImplemented pins the scaffold's skeleton handler.
// DELETE THIS TEST when you write the handler: it is the one assertion that must stop holding.
func TestAddNotImplemented(t *testing.T) {
	nt, ok := tools.Registry.Lookup("notes:add")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"output":"x-output","text":"x-text","upper":true}`)
	env := &tool.Env{
		Dir:   t.TempDir(),
		Log:   io.Discard,
		Stdin: strings.NewReader(""),
	}
	out := nt.Call(context.Background(), env, raw)
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeNotImplemented, out.Error.Code)
}
