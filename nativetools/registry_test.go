package nativetools_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/nativetools"
	_ "github.com/cmdbridge/cmdbridge/nativetools/all"
	"github.com/cmdbridge/cmdbridge/nativetools/schematest"
	"github.com/cmdbridge/cmdbridge/tool"
)

type sampleIn struct {
	Name  string   `json:"name" jsonschema:"who"`
	Files []string `json:"files,omitempty"`
	Force bool     `json:"force,omitempty"`
}

func TestNewInfersSchemaAndDecodes(t *testing.T) {
	tl := nativetools.New(tool.Spec{Name: "x:y"}, func(ctx context.Context, env *tool.Env, in sampleIn) tool.Output {
		return tool.OK(in)
	})
	s := tl.Spec.InputSchema
	assert.Equal(t, "object", s.Type)
	assert.Equal(t, []string{"name"}, s.Required)
	assert.Equal(t, "who", s.Properties["name"].Description)
	assert.Equal(t, "array", s.Properties["files"].Type)
	out := tl.Call(context.Background(), &tool.Env{}, json.RawMessage(`{"name":"a","files":["f"]}`))
	require.True(t, out.Success)
	assert.Equal(t, sampleIn{Name: "a", Files: []string{"f"}}, out.Data)
	out = tl.Call(context.Background(), &tool.Env{}, json.RawMessage(`{"nme":"a"}`))
	assert.Equal(t, tool.CodeInvalidInput, out.Error.Code)
}

func TestRegistryRejectsDuplicates(t *testing.T) {
	r := nativetools.NewRegistry()
	h := func(context.Context, *tool.Env, struct{}) tool.Output { return tool.OK(nil) }
	require.NoError(t, r.Add(nativetools.New(tool.Spec{Name: "git:status"}, h)))
	assert.ErrorContains(t, r.Add(nativetools.New(tool.Spec{Name: "git:status"}, h)), "twice")
	assert.ErrorContains(t, r.Add(nativetools.New(tool.Spec{Name: "git_status"}, h)), "spelled differently")
}

func TestHandlerPanicIsInternal(t *testing.T) {
	tl := nativetools.New(tool.Spec{Name: "x:boom"}, func(context.Context, *tool.Env, struct{}) tool.Output { panic("boom") })
	out := tl.Call(context.Background(), &tool.Env{}, nil)
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeInternal, out.Error.Code)
}

// TestEveryPropertyReachesHandler walks every registered tool's schema and proves that
// an input setting every property decodes into the handler's Input with nothing lost.
func TestEveryPropertyReachesHandler(t *testing.T) {
	for _, tl := range nativetools.Default.All() {
		t.Run(tl.Spec.Name, func(t *testing.T) {
			full := schematest.FullInput(tl.Spec.InputSchema)
			raw, err := json.Marshal(full)
			require.NoError(t, err)
			in, err := tl.Decode(raw)
			require.NoError(t, err)
			back, err := json.Marshal(in)
			require.NoError(t, err)
			var got map[string]any
			require.NoError(t, json.Unmarshal(back, &got))
			for prop, want := range full {
				assert.Equal(t, want, got[prop], "property %s", prop)
			}
		})
	}
}
