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
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
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

// pluggedShadows are shadow runs that count the calls they decorate and serve the
// primary.
type pluggedShadows struct{ decorated int }

func (p *pluggedShadows) Lane(primary, secondary kernel.Lane) kernel.Lane {
	p.decorated++
	return primary
}

func (p *pluggedShadows) Stats() map[string]kernel.ShadowStat { return nil }

func (p *pluggedShadows) Close() error { return nil }

// TestKernelPlugsInTheShadowRuns: a shadow-routed tool is compared by package
// kernel/shadow's runs by default (its note on the receipt, its counts in
// ShadowStats), and by the host's own when Config.Shadow plugs them in.
func TestKernelPlugsInTheShadowRuns(t *testing.T) {
	cmds, natives := registries(t)
	cfg := assemble.Config{Config: kernel.Config{Workspace: t.TempDir(), Evidence: kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
		Routes: map[string]string{"demo:x": kernel.RouteShadow}}, Commands: cmds, Native: natives}
	k, err := assemble.Kernel(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	res := k.Call(context.Background(), kernel.Request{Tool: "demo:x", Input: []byte(`{}`), Caller: kernel.WorkspaceCaller("tester")})
	require.NotNil(t, res.Receipt.Shadow, "the default shadow runs compared the call")
	assert.Equal(t, kernel.LaneAdapter, res.Receipt.Lane)
	assert.Equal(t, int64(1), k.ShadowStats()["demo:x"].Runs)

	plugged := &pluggedShadows{}
	cfg.Workspace = t.TempDir()
	cfg.Shadow = func(statedir.Dir) (kernel.Shadows, error) { return plugged, nil }
	k2, err := assemble.Kernel(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = k2.Close() })
	res = k2.Call(context.Background(), kernel.Request{Tool: "demo:x", Input: []byte(`{}`), Caller: kernel.WorkspaceCaller("tester")})
	assert.Nil(t, res.Receipt.Shadow, "the plugged runs noted nothing")
	assert.Equal(t, 1, plugged.decorated, "the host's shadow runs decorated the call")
}
