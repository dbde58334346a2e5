package native_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

type sampleIn struct {
	Name  string   `json:"name" jsonschema:"who"`
	Files []string `json:"files,omitempty"`
	Force bool     `json:"force,omitempty"`
}

func TestNewInfersSchemaAndDecodes(t *testing.T) {
	tl := native.New(tool.Spec{Name: "x:y"}, func(ctx context.Context, env *tool.Env, in sampleIn) tool.Output {
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
	r := native.NewRegistry()
	h := func(context.Context, *tool.Env, struct{}) tool.Output { return tool.OK(nil) }
	require.NoError(t, r.Add(native.New(tool.Spec{Name: "git:status"}, h)))
	assert.ErrorContains(t, r.Add(native.New(tool.Spec{Name: "git:status"}, h)), "twice")
	assert.ErrorContains(t, r.Add(native.New(tool.Spec{Name: "git_status"}, h)), "spelled differently")
}

func TestHandlerPanicIsInternal(t *testing.T) {
	tl := native.New(tool.Spec{Name: "x:boom"}, func(context.Context, *tool.Env, struct{}) tool.Output { panic("boom") })
	out := tl.Call(context.Background(), &tool.Env{}, nil)
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeInternal, out.Error.Code)
}

func TestRegistryDerivesAnUndeclaredDomainFromTheName(t *testing.T) {
	h := func(context.Context, *tool.Env, struct{}) tool.Output { return tool.OK(nil) }
	r := native.NewRegistry()
	require.NoError(t, r.Add(native.New(tool.Spec{Name: "lane-lock:acquire"}, h)))
	require.NoError(t, r.Add(native.New(tool.Spec{Name: "mem:inbox", Domain: "memory"}, h)))
	got, _ := r.Lookup("lane-lock:acquire")
	assert.Equal(t, "lane-lock", got.Spec.Domain)
	got, _ = r.Lookup("mem:inbox")
	assert.Equal(t, "memory", got.Spec.Domain, "a declared domain is kept")
}

// TestCallContextCarriesTheEnv: shared code handed only the handler's context reads the
// call's Env through it.
func TestCallContextCarriesTheEnv(t *testing.T) {
	env := &tool.Env{Dir: "/w"}
	var got *tool.Env
	tl := native.New(tool.Spec{Name: "x:ctx"}, func(ctx context.Context, _ *tool.Env, _ sampleIn) tool.Output {
		got = tool.EnvFromContext(ctx)
		return tool.OK(nil)
	})
	tl.Call(context.Background(), env, json.RawMessage(`{"name":"a"}`))
	assert.Same(t, env, got)
	assert.Nil(t, tool.EnvFromContext(context.Background()))
}
