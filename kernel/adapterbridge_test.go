package kernel_test

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// TestDefaultAdapterRunsLegacyMain runs a legacy-style command through the real adapter
// lane (the default Adapter) and its --json envelope.
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
	k, _ := newKernel(t, &probe{}, func(c *kernel.Config) { c.Commands, c.Adapter = reg, nil })

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
	k, _ := newKernel(t, &probe{}, func(c *kernel.Config) { c.Commands, c.Adapter = reg, nil })
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
