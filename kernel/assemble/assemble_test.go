package assemble_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// registries are a command demo:x and its native twin, routed native by the native
// registry, and a native-only demo:clock that answers its environment.
func registries(t *testing.T) (*legacy.Registry, *native.Registry) {
	t.Helper()
	cmds := legacy.NewRegistry()
	require.NoError(t, cmds.Add(legacy.Command{Name: "demo:x", Domain: "demo",
		New: func() *cli.App {
			return &cli.App{Name: "demo:x", Usage: "x", Metadata: map[string]any{legacy.MetaReadOnly: true}}
		}, Main: func(context.Context) {}}))
	natives := native.NewRegistry()
	obj := &jsonschema.Schema{Type: "object"}
	require.NoError(t, natives.Add(native.Raw(tool.Spec{Name: "demo:x", Description: "x", InputSchema: obj,
		Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, _ json.RawMessage) tool.Output { return tool.OK("native x") })))
	require.NoError(t, natives.Add(native.Raw(tool.Spec{Name: "demo:clock", Description: "clock", InputSchema: obj,
		Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, _ json.RawMessage) tool.Output {
			v, _ := env.LookupEnv("WHO")
			return tool.OK(map[string]any{"now": env.Now().UTC().Format(time.RFC3339), "id": env.IDs.Hex("t", 4), "who": v, "store": env.Store != nil})
		})))
	natives.SetRoutes(map[string]string{"demo:x": kernel.RouteNative})
	return cmds, natives
}

func call(t *testing.T, k *kernel.Kernel, name string) tool.Output {
	t.Helper()
	res := k.Call(context.Background(), kernel.Request{Tool: name, Input: []byte(`{}`), Caller: kernel.WorkspaceCaller("tester")})
	return res.Output
}

// TestKernelServesTheRegistries: both registries become the kernel's tools, the native
// registry's routes its base routes (a host's own base routes over them), and the
// native lane's calls see the kernel's LookupEnv, Runtime and Store.
func TestKernelServesTheRegistries(t *testing.T) {
	cmds, natives := registries(t)
	base := kernel.Config{Evidence: kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
		LookupEnv: tool.EnvFromMap(map[string]string{"WHO": "ada"})}
	fixed := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	store := tool.NewStore()
	t.Cleanup(func() { _ = store.Close() })

	cfg := assemble.Config{Config: base, Commands: cmds, Native: natives, Store: store,
		Runtime: func(lookup func(string) (string, bool)) (func() time.Time, tool.IDSource) {
			return func() time.Time { return fixed }, fixedIDs{}
		}}
	cfg.Workspace = t.TempDir()
	k, err := assemble.Kernel(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	route, _ := k.Route("demo:x")
	assert.Equal(t, kernel.RouteNative, route, "the native registry's route")
	assert.Equal(t, "native x", call(t, k, "demo:x").Data)
	out := call(t, k, "demo:clock")
	require.True(t, out.Success, "%+v", out.Error)
	assert.Equal(t, map[string]any{"now": "2026-01-02T03:04:05Z", "id": "abcd", "who": "ada", "store": true}, out.Data)

	cfg.Workspace, cfg.BaseRoutes = t.TempDir(), map[string]string{"demo:x": kernel.RouteAdapter}
	k2, err := assemble.Kernel(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = k2.Close() })
	route, _ = k2.Route("demo:x")
	assert.Equal(t, kernel.RouteAdapter, route, "the host's base route wins over the registry's")
}

type fixedIDs struct{}

func (fixedIDs) Hex(kind string, n int) string { return "abcdef"[:n] }

// TestKernelRefusesWhatItCannotAssemble: per-call Legacy settings, lanes given to the
// kernel's Config instead of as replacements, and replacements of no default lane.
func TestKernelRefusesWhatItCannotAssemble(t *testing.T) {
	cmds, natives := registries(t)
	for _, tc := range []struct {
		name string
		mod  func(*assemble.Config)
		want string
	}{
		{"legacy dir", func(c *assemble.Config) { c.Legacy.Dir = "elsewhere" }, "Dir and Stdin are set per call"},
		{"legacy stdin", func(c *assemble.Config) { c.Legacy.Stdin = []byte("x") }, "Dir and Stdin are set per call"},
		{"kernel lanes", func(c *assemble.Config) { c.Config.Lanes = []kernel.Lane{lane(kernel.LaneNative)} }, "kernel.Config.Lanes is filled here"},
		{"unknown lane", func(c *assemble.Config) { c.Lanes = []kernel.Lane{lane("shadow")} }, `lane "shadow": no such lane`},
		{"lane twice", func(c *assemble.Config) { c.Lanes = []kernel.Lane{lane(kernel.LaneAdapter), lane(kernel.LaneAdapter)} }, `lane "adapter": given twice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := assemble.Config{Config: kernel.Config{Workspace: t.TempDir()}, Commands: cmds, Native: natives}
			tc.mod(&cfg)
			_, err := assemble.Kernel(cfg)
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

// lane is a lane of any name that answers with its name.
type lane string

func (l lane) Name() string { return string(l) }

func (l lane) Run(ctx context.Context, call kernel.LaneCall) tool.Output {
	return tool.OK(string(l) + " ran " + call.Spec.Name)
}

// TestReplacementLaneServesInPlaceOfTheDefault: a lane of Config.Lanes serves the calls
// of its name; the other defaults stay.
func TestReplacementLaneServesInPlaceOfTheDefault(t *testing.T) {
	cmds, natives := registries(t)
	k, err := assemble.Kernel(assemble.Config{
		Config:   kernel.Config{Workspace: t.TempDir(), Evidence: kernel.EvidenceConfig{Sync: evidence.SyncBuffered}},
		Commands: cmds, Native: natives, Lanes: []kernel.Lane{lane(kernel.LaneNative)},
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	assert.Equal(t, "native ran demo:x", call(t, k, "demo:x").Data)
	res := k.Call(context.Background(), kernel.Request{Tool: "demo:x", Input: []byte(`{}`), Caller: kernel.WorkspaceCaller("tester"), Lane: kernel.LaneSandbox})
	assert.Equal(t, tool.CodeSandboxUnavailable, res.Output.Error.Code, "the default sandbox lane, without a runner")
}
