package kernel_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
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
	k, _ := newKernel(t, &probe{}, func(c *assemble.Config) {
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
			// (two exclusive properties): then each optional property goes with the
			// required ones and the fewest other properties (none, one or two) its
			// constraints accept, so every property still has to reach the lane.
			inputs := []map[string]any{full}
			raw, err := json.Marshal(full)
			require.NoError(t, err)
			if res := k.Call(context.Background(), req(spec.Name, string(raw))); !res.Output.Success {
				require.Equal(t, tool.CodeInvalidInput, res.Output.Error.Code, "%+v", res.Output.Error)
				details, _ := res.Output.Error.Details.(map[string]any)
				require.Contains(t, details, "rule", "only a constraint may refuse the full input: %+v", res.Output.Error)
				inputs = nil
				for _, prop := range slices.Sorted(maps.Keys(full)) {
					if slices.Contains(spec.InputSchema.Required, prop) {
						continue
					}
					in := companions(t, k, spec.Name, full, spec.InputSchema.Required, prop)
					require.NotNil(t, in, "no input with %s and at most two other properties passes the constraints", prop)
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

// companions is an input with prop, the required properties and the fewest others from
// full (none, then one, then two, in name order) that the tool's constraints accept; nil
// when there is none.
func companions(t *testing.T, k *kernel.Kernel, name string, full map[string]any, required []string, prop string) map[string]any {
	t.Helper()
	base := map[string]any{prop: full[prop]}
	for _, r := range required {
		base[r] = full[r]
	}
	var others []string
	for _, o := range slices.Sorted(maps.Keys(full)) {
		if _, in := base[o]; !in {
			others = append(others, o)
		}
	}
	accepted := func(extra ...string) map[string]any {
		in := maps.Clone(base)
		for _, o := range extra {
			in[o] = full[o]
		}
		raw, err := json.Marshal(in)
		require.NoError(t, err)
		if k.Call(context.Background(), req(name, string(raw))).Output.Success {
			return in
		}
		return nil
	}
	if in := accepted(); in != nil {
		return in
	}
	for i, a := range others {
		if in := accepted(a); in != nil {
			return in
		}
		for _, b := range others[i+1:] {
			if in := accepted(a, b); in != nil {
				return in
			}
		}
	}
	return nil
}
