package kernel_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/nativetools"
	_ "github.com/cmdbridge/cmdbridge/nativetools/all"
	"github.com/cmdbridge/cmdbridge/nativetools/schematest"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// TestEveryPropertyReachesTheLane walks every tool schema (the real native tools, cloned
// as spies, and adapter-backed commands) and proves that an input setting every declared
// property passes the pipeline and arrives at the lane unchanged.
func TestEveryPropertyReachesTheLane(t *testing.T) {
	spies := native.NewRegistry()
	got := map[string]json.RawMessage{}
	for _, real := range nativetools.Default.All() {
		name := real.Spec.Name
		require.NoError(t, spies.Add(native.Raw(real.Spec, func(ctx context.Context, env *tool.Env, in json.RawMessage) tool.Output {
			got[name] = in
			return tool.OK(nil)
		})))
	}
	ad := &fakeAdapter{}
	k, _ := newKernel(t, &probe{}, func(c *kernel.Config) {
		c.Native, c.Lanes = spies, ad.lanes()
		c.Commands = testCommands(t, "wu:edit", "wu:done")
		c.Policy = []kernel.Rule{{Decision: kernel.Allow}}
	})
	tools := k.Tools()
	require.GreaterOrEqual(t, len(tools), 2)
	for _, spec := range tools {
		t.Run(spec.Name, func(t *testing.T) {
			full := schematest.FullInput(spec.InputSchema)
			// An input setting every property at once may break the tool's constraints
			// (two exclusive properties): then each optional property goes alone, beside
			// the required ones, so every property still has to reach the lane.
			inputs := []map[string]any{full}
			raw, err := json.Marshal(full)
			require.NoError(t, err)
			if res := k.Call(context.Background(), req(spec.Name, string(raw))); !res.Output.Success {
				require.Equal(t, tool.CodeInvalidInput, res.Output.Error.Code, "%+v", res.Output.Error)
				require.Contains(t, res.Output.Error.Message, "together", "only a constraint may refuse the full input")
				inputs = nil
				for prop, v := range full {
					if slices.Contains(spec.InputSchema.Required, prop) {
						continue
					}
					in := map[string]any{prop: v}
					for _, r := range spec.InputSchema.Required {
						in[r] = full[r]
					}
					inputs = append(inputs, in)
				}
			}
			for _, in := range inputs {
				raw, err := json.Marshal(in)
				require.NoError(t, err)
				res := k.Call(context.Background(), req(spec.Name, string(raw)))
				require.True(t, res.Output.Success, "%s: %+v", raw, res.Output.Error)
				var arrived json.RawMessage
				if route, _ := k.Route(spec.Name); route == kernel.RouteNative {
					arrived = got[spec.Name]
				} else {
					arrived = ad.calls[len(ad.calls)-1].Input
				}
				var back map[string]any
				require.NoError(t, json.Unmarshal(arrived, &back))
				for prop, want := range in {
					assert.Equal(t, want, back[prop], "property %s", prop)
				}
			}
		})
	}
}
