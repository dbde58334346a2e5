package kernel_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/kernel"
)

// TestDefaultAdapterRunsLegacyMain runs a legacy-style command through the real adapter
// lane (the default Adapter) and its --json envelope.
func TestDefaultAdapterRunsLegacyMain(t *testing.T) {
	newApp := func() *cli.App {
		return &cli.App{
			Name: "demo:hello", Usage: "say hello",
			Metadata: map[string]any{commands.MetaReadOnly: true},
			Flags:    []cli.Flag{&cli.StringFlag{Name: "who-is", Required: true}, &cli.BoolFlag{Name: "json"}},
			Action: func(c *cli.Context) error {
				fmt.Fprintf(os.Stdout, `{"ok":true,"command":"demo:hello","data":{"greeting":"hello %s"},"error":null,"warnings":[]}`+"\n", c.String("who-is"))
				return nil
			},
		}
	}
	reg := commands.NewRegistry()
	require.NoError(t, reg.Add(commands.Command{Name: "demo:hello", Domain: "demo", New: newApp,
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

func mustJSON(t *testing.T, v any) []byte {
	b, err := jsonMarshal(v)
	require.NoError(t, err)
	return b
}
