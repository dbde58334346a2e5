package kernel_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/tool"
)

// neutralSource describes a read-only tool taking nothing, of kind.
func neutralSource(kind, name string) kernel.Source {
	return kernel.Source{Kind: kind, Name: name, Domain: "demo", Spec: func() (tool.Spec, error) {
		return tool.Spec{Name: name, Description: "demo", Annotations: tool.Annotations{ReadOnlyHint: true},
			InputSchema: &jsonschema.Schema{Type: "object"}}, nil
	}}
}

// answeringLane is a lane of any name that answers with its name.
type answeringLane string

func (l answeringLane) Name() string { return string(l) }

func (l answeringLane) Run(ctx context.Context, call kernel.LaneCall) tool.Output {
	return tool.OK(string(l) + " ran " + call.Spec.Name)
}

// TestKernelServesNeutralSourcesOnTheLanesItIsGiven: a kernel built without the
// assembly knows its tools by Source and runs them on the lanes of Config.Lanes, routed
// by the defaults, the base routes and the workspace's routes; a call dispatched to a
// lane it lacks fails with a receipt.
func TestKernelServesNeutralSourcesOnTheLanesItIsGiven(t *testing.T) {
	k, err := kernel.New(kernel.Config{
		Workspace: t.TempDir(), Evidence: kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
		Tools: []kernel.Source{
			neutralSource(kernel.SourceCommand, "demo:cmd"),
			neutralSource(kernel.SourceCommand, "demo:both"), neutralSource(kernel.SourceNative, "demo:both"),
			neutralSource(kernel.SourceNative, "demo:native"),
			neutralSource(kernel.SourceCommand, "demo:over"), neutralSource(kernel.SourceNative, "demo:over"),
		},
		BaseRoutes: map[string]string{"demo:both": kernel.RouteNative, "demo:over": kernel.RouteNative, "demo:elsewhere": kernel.RouteNative},
		Routes:     map[string]string{"demo:over": kernel.RouteAdapter},
		Lanes:      []kernel.Lane{answeringLane(kernel.LaneAdapter), answeringLane(kernel.LaneNative)},
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	for name, want := range map[string]string{
		"demo:cmd": "adapter ran demo:cmd", "demo:both": "native ran demo:both",
		"demo:native": "native ran demo:native", "demo:over": "adapter ran demo:over",
	} {
		res := k.Call(context.Background(), req(name, `{}`))
		require.True(t, res.Output.Success, "%s: %+v", name, res.Output.Error)
		assert.Equal(t, want, res.Output.Data, name)
	}
	res := k.Call(context.Background(), kernel.Request{Tool: "demo:cmd", Input: []byte(`{}`), Caller: kernel.WorkspaceCaller("tester"), Lane: kernel.LaneSubprocess})
	require.False(t, res.Output.Success)
	assert.Equal(t, tool.CodeExecutionFailed, res.Output.Error.Code)
	assert.Contains(t, res.Output.Error.Message, "no subprocess lane")
	assert.Equal(t, evidence.StatusFailed, res.Receipt.Status)
}

// TestKernelConfigOfSourcesAndLanesIsChecked: New refuses what it cannot serve from
// neutral descriptions, and the assembly refuses lanes given to the kernel directly.
func TestKernelConfigOfSourcesAndLanesIsChecked(t *testing.T) {
	build := func(cfg kernel.Config) error {
		cfg.Workspace = t.TempDir()
		k, err := kernel.New(cfg)
		if err == nil {
			_ = k.Close()
		}
		return err
	}
	noSpec := neutralSource(kernel.SourceNative, "demo:x")
	noSpec.Spec = nil
	for _, tc := range []struct {
		name string
		cfg  kernel.Config
		want string
	}{
		{"unknown kind", kernel.Config{Tools: []kernel.Source{neutralSource("script", "demo:x")}}, `unknown kind "script"`},
		{"no spec", kernel.Config{Tools: []kernel.Source{noSpec}}, "no spec"},
		{"command twice", kernel.Config{Tools: []kernel.Source{neutralSource(kernel.SourceCommand, "demo:x"), neutralSource(kernel.SourceCommand, "demo:x")}}, "given twice"},
		{"native twice", kernel.Config{Tools: []kernel.Source{neutralSource(kernel.SourceNative, "demo:x"), neutralSource(kernel.SourceNative, "demo:x")}}, "given twice"},
		{"unknown lane", kernel.Config{Lanes: []kernel.Lane{answeringLane("shadow")}}, `lane "shadow": no such lane`},
		{"lane twice", kernel.Config{Lanes: []kernel.Lane{answeringLane(kernel.LaneNative), answeringLane(kernel.LaneNative)}}, `lane "native": given twice`},
		{"spec error", kernel.Config{Tools: []kernel.Source{{Kind: kernel.SourceCommand, Name: "demo:x", Spec: func() (tool.Spec, error) { return tool.Spec{}, errors.New("bad") }}}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := build(tc.cfg)
			if tc.want == "" {
				assert.NoError(t, err, "a spec that cannot be derived makes the tool unavailable, not the kernel")
				return
			}
			assert.ErrorContains(t, err, tc.want)
		})
	}
	_, err := assemble.Kernel(assemble.Config{Config: kernel.Config{Workspace: t.TempDir(), Lanes: []kernel.Lane{answeringLane(kernel.LaneNative)}}})
	assert.ErrorContains(t, err, "kernel.Config.Lanes is filled here")
}
