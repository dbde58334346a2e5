// Scaffolded by `cmdbridge scaffold demo:greet`: the native tool's contract with its legacy command.

package demo_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/codegen/scaffold/testdata/golden/nativetools/demo"
	"github.com/cmdbridge/cmdbridge/codegen/scaffold/testdata/greet"
	"github.com/cmdbridge/cmdbridge/codegen/scaffold/testdata/greet/tools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestGreetSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestGreetSchemaEqualsAdapter(t *testing.T) {
	c, ok := greet.Commands.Lookup("demo:greet")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := tools.Default.Lookup("demo:greet")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestGreetDecodesFullInput: every property decodes into GreetInput and survives the round trip.
func TestGreetDecodesFullInput(t *testing.T) {
	nt, ok := tools.Default.Lookup("demo:greet")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"cc":["x-cc"],"greeting":"x-greeting","max_width":7,"name":"x-name","shout":true,"times":7,"tone":"warm"}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(demo.GreetInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}

// TestGreetNotImplemented pins the scaffold's skeleton handler.
// DELETE THIS TEST when you write the handler: it is the one assertion that must stop holding.
func TestGreetNotImplemented(t *testing.T) {
	nt, ok := tools.Default.Lookup("demo:greet")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"cc":["x-cc"],"greeting":"x-greeting","max_width":7,"name":"x-name","shout":true,"times":7,"tone":"warm"}`)
	env := &tool.Env{
		Dir:   t.TempDir(),
		Log:   io.Discard,
		Stdin: strings.NewReader(""),
	}
	out := nt.Call(context.Background(), env, raw)
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeNotImplemented, out.Error.Code)
}
