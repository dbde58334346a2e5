package kernel_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/sandbox"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// TestDefaultAdapterRunsLegacyMain runs a legacy-style command through the real adapter
// lane (the built-in one, the adapter package) and its --json envelope.
func TestDefaultAdapterRunsLegacyMain(t *testing.T) {
	newApp := func() *cli.App {
		return &cli.App{
			Name: "demo:hello", Usage: "say hello",
			Metadata: map[string]any{legacy.MetaReadOnly: true},
			Flags:    []cli.Flag{&cli.StringFlag{Name: "who-is", Required: true}, &cli.BoolFlag{Name: "json"}},
			Action: func(c *cli.Context) error {
				fmt.Fprintf(os.Stdout, `{"ok":true,"command":"demo:hello","data":{"greeting":"hello %s"},"error":null,"warnings":[]}`+"\n", c.String("who-is"))
				return nil
			},
		}
	}
	reg := legacy.NewRegistry()
	require.NoError(t, reg.Add(legacy.Command{Name: "demo:hello", Domain: "demo", New: newApp,
		Main: func(ctx context.Context) { _ = newApp().RunContext(ctx, os.Args) }}))
	k, _ := newKernel(t, &probe{}, func(c *assemble.Config) { c.Commands, c.Lanes = reg, nil })

	var spec bool
	for _, s := range k.Tools() {
		if s.Name == "demo:hello" {
			spec = true
			assert.Contains(t, s.InputSchema.Properties, "who_is")
			assert.True(t, s.ParallelSafe)
		}
	}
	require.True(t, spec)
	res := k.Call(context.Background(), req("DemoHello", `{"who_is":"ada"}`))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
	assert.JSONEq(t, `{"greeting":"hello ada"}`, string(mustJSON(t, res.Output.Data)))
	assert.Equal(t, "adapter", res.Receipt.Lane)
	require.NotNil(t, res.Receipt.ExitCode)
	assert.Equal(t, 0, *res.Receipt.ExitCode)
}

var demoRunning, demoMax atomic.Int32

// TestAdapterCallsQueueOnTheAdapterLock: parallel-safe adapter calls share a wave but the
// adapter runs one legacy main at a time; results still come in request order.
func TestAdapterCallsQueueOnTheAdapterLock(t *testing.T) {
	demoMax.Store(0)
	newApp := func() *cli.App {
		return &cli.App{Name: "demo:slow", Usage: "slow", Metadata: map[string]any{legacy.MetaReadOnly: true},
			Flags: []cli.Flag{&cli.IntFlag{Name: "n"}, &cli.BoolFlag{Name: "json"}},
			Action: func(c *cli.Context) error {
				n := demoRunning.Add(1)
				for {
					m := demoMax.Load()
					if n <= m || demoMax.CompareAndSwap(m, n) {
						break
					}
				}
				time.Sleep(5 * time.Millisecond)
				demoRunning.Add(-1)
				fmt.Fprintf(os.Stdout, `{"ok":true,"command":"demo:slow","data":%d,"error":null,"warnings":[]}`+"\n", c.Int("n"))
				return nil
			}}
	}
	reg := legacy.NewRegistry()
	require.NoError(t, reg.Add(legacy.Command{Name: "demo:slow", New: newApp,
		Main: func(ctx context.Context) { _ = newApp().RunContext(ctx, os.Args) }}))
	k, _ := newKernel(t, &probe{}, func(c *assemble.Config) { c.Commands, c.Lanes = reg, nil })
	var reqs []kernel.Request
	for i := 0; i < 4; i++ {
		reqs = append(reqs, req("demo:slow", fmt.Sprintf(`{"n":%d}`, i)))
	}
	for i, r := range k.Batch(context.Background(), reqs) {
		require.True(t, r.Output.Success, "%+v", r.Output.Error)
		assert.JSONEq(t, fmt.Sprint(i), string(mustJSON(t, r.Output.Data)))
	}
	assert.Equal(t, int32(1), demoMax.Load(), "one legacy main at a time")
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := jsonMarshal(v)
	require.NoError(t, err)
	return b
}

// greetCommands is one unanalysed command (no tier) that answers with the environment
// the adapter set for it.
func greetCommands(t *testing.T) *legacy.Registry {
	newApp := func() *cli.App {
		return &cli.App{Name: "demo:greet", Usage: "greet", Metadata: map[string]any{legacy.MetaReadOnly: true},
			Flags: []cli.Flag{&cli.BoolFlag{Name: "json"}},
			Action: func(c *cli.Context) error {
				fmt.Fprintf(os.Stdout, `{"ok":true,"command":"demo:greet","data":{"greeting":%q,"caller":%q},"error":null,"warnings":[]}`+"\n",
					os.Getenv("GREETING"), os.Getenv(tool.CallerEnv))
				return nil
			}}
	}
	reg := legacy.NewRegistry()
	require.NoError(t, reg.Add(legacy.Command{Name: "demo:greet", New: newApp,
		Main: func(ctx context.Context) { _ = newApp().RunContext(ctx, os.Args) }}))
	return reg
}

// TestLegacySettingsReachTheAdapter: assemble.Config.Legacy is what the adapter package runs
// with: the declared environment (with the caller on top), and the binary that sends an
// unanalysed command to the subprocess lane unless RunUnanalysed opts in.
func TestLegacySettingsReachTheAdapter(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-binary")
	cases := []struct {
		name    string
		legacy  adapter.Config
		lane    string
		reason  any
		success bool
	}{
		{"no binary runs in-process", adapter.Config{Env: map[string]string{"GREETING": "hello"}}, kernel.LaneAdapter, nil, true},
		{"in-process opt-in", adapter.Config{Binary: missing, RunUnanalysed: true, Env: map[string]string{"GREETING": "hello"}}, kernel.LaneAdapter, nil, true},
		{"unanalysed goes to the binary", adapter.Config{Binary: missing}, kernel.LaneSubprocess, adapter.ReasonUnanalysed, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k, _ := newKernel(t, &probe{}, func(c *assemble.Config) { c.Commands, c.Lanes, c.Legacy = greetCommands(t), nil, tc.legacy })
			res := k.Call(context.Background(), req("demo:greet", `{}`))
			assert.Equal(t, tc.lane, res.Receipt.Lane)
			assert.Equal(t, tc.reason, res.Output.Metadata["reason"])
			require.Equal(t, tc.success, res.Output.Success, "%+v", res.Output.Error)
			if tc.success {
				assert.JSONEq(t, `{"greeting":"hello","caller":"tester"}`, string(mustJSON(t, res.Output.Data)))
			}
		})
	}
}

// echoLane is a native lane of its own: it answers every call with its name.
type echoLane struct{}

func (echoLane) Name() string { return kernel.LaneNative }

func (echoLane) Run(ctx context.Context, call kernel.LaneCall) tool.Output {
	return tool.OK("replaced " + call.Spec.Name)
}

func TestConfigLanesReplaceBuiltInLanesByName(t *testing.T) {
	k, _ := newKernel(t, &probe{}, func(c *assemble.Config) { c.Lanes = []kernel.Lane{echoLane{}} })
	res := k.Call(context.Background(), req("test:echo", `{"text":"hi"}`))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
	assert.Equal(t, "replaced test:echo", res.Output.Data)
	assert.Equal(t, kernel.LaneNative, res.Receipt.Lane)

	base := func(mod func(*assemble.Config)) error {
		cfg := assemble.Config{Config: kernel.Config{Workspace: t.TempDir()}, Native: testRegistry(t, &probe{}), Commands: testCommands(t, "wu:edit")}
		mod(&cfg)
		k, err := assemble.Kernel(cfg)
		if err == nil {
			_ = k.Close()
		}
		return err
	}
	assert.ErrorContains(t, base(func(c *assemble.Config) { c.Lanes = []kernel.Lane{namedLane("shadow")} }), `lane "shadow": no such lane`)
	assert.ErrorContains(t, base(func(c *assemble.Config) { c.Lanes = []kernel.Lane{echoLane{}, echoLane{}} }), `lane "native": given twice`)
	assert.ErrorContains(t, base(func(c *assemble.Config) { c.Legacy.Dir = "elsewhere" }), "Dir and Stdin are set per call")
	assert.ErrorContains(t, base(func(c *assemble.Config) { c.Legacy.Stdin = []byte("x") }), "Dir and Stdin are set per call")
}

// namedLane is a lane that only has a name.
type namedLane string

func (l namedLane) Name() string { return string(l) }

func (l namedLane) Run(ctx context.Context, call kernel.LaneCall) tool.Output { return tool.OK(nil) }

// TestShadowDecoratesTheSandboxLane: a sandboxed shadow-routed tool is served by the
// sandbox, and its native implementation still runs beside it on a copy.
func TestShadowDecoratesTheSandboxLane(t *testing.T) {
	type editIn struct {
		ID string `json:"id"`
	}
	nativeRan := make(chan string, 1)
	sb := &fakeSandbox{host: sandbox.HostFull}
	k, _ := newKernel(t, &probe{}, func(c *assemble.Config) {
		reg := native.NewRegistry()
		require.NoError(t, reg.Add(native.New(tool.Spec{Name: "wu:edit"},
			func(ctx context.Context, env *tool.Env, in editIn) tool.Output {
				nativeRan <- env.Dir
				return tool.OK(nil)
			})))
		c.Native, c.Sandbox, c.Sandboxed = reg, sb, []string{"wu:edit"}
		c.Routes = map[string]string{"wu:edit": kernel.RouteShadow}
	})
	res := k.Call(context.Background(), req("wu:edit", `{"id":"WU-1"}`))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
	assert.Equal(t, "sandboxed adapter", res.Output.Data, "the sandbox's result is served")
	assert.Equal(t, kernel.LaneSandbox, res.Receipt.Lane)
	require.NotNil(t, res.Receipt.Sandbox)
	require.NotNil(t, res.Receipt.Shadow, "the call was shadowed")
	assert.False(t, res.Receipt.Shadow.Match, "the native side answered differently")
	assert.NotEqual(t, k.Workspace(), <-nativeRan, "the native side ran on a copy")
	assert.Equal(t, int64(1), k.ShadowStats()["wu:edit"].Mismatches)
}

// notingLane is a lane outside package kernel that leaves evidence through the contract.
type notingLane struct{}

func (notingLane) Name() string { return kernel.LaneNative }

func (notingLane) Run(ctx context.Context, call kernel.LaneCall) tool.Output {
	call.Notes.Note("ran_on", "notingLane")
	call.Notes.SetSandbox(&evidence.SandboxNote{Host: "fake", ProfileHash: "p"})
	call.Notes.SetShadow(&evidence.ShadowNote{Match: true})
	return tool.OK(nil)
}

// TestLaneRecordsNotesThroughTheContract: a plugged lane's notes, of every kind, reach
// the receipt; a LaneCall without Notes records nothing and does not fail.
func TestLaneRecordsNotesThroughTheContract(t *testing.T) {
	k, _ := newKernel(t, &probe{}, func(c *assemble.Config) { c.Lanes = []kernel.Lane{notingLane{}} })
	res := k.Call(context.Background(), req("test:echo", `{}`))
	require.True(t, res.Output.Success, "%+v", res.Output.Error)
	assert.Equal(t, map[string]string{"ran_on": "notingLane"}, res.Receipt.Notes)
	require.NotNil(t, res.Receipt.Sandbox)
	assert.Equal(t, "fake", res.Receipt.Sandbox.Host)
	require.NotNil(t, res.Receipt.Shadow)
	assert.True(t, res.Receipt.Shadow.Match)

	out := notingLane{}.Run(context.Background(), kernel.LaneCall{Spec: &tool.Spec{Name: "x"}})
	assert.True(t, out.Success)
	var none *kernel.LaneNotes
	assert.Nil(t, none.Values())
	assert.Nil(t, none.Shadow())
	assert.Nil(t, none.Sandbox())
}
