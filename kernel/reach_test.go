package kernel_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// kindsIn has a property of every kind a schema gives.
type kindsIn struct {
	Name  string            `json:"name"`
	Count int               `json:"count,omitempty" jsonschema:"how many"`
	Ratio float64           `json:"ratio,omitempty"`
	On    bool              `json:"on,omitempty"`
	Tags  []string          `json:"tags,omitempty"`
	Sizes []int             `json:"sizes,omitempty"`
	Owner struct{ ID int }  `json:"owner,omitempty"`
	Extra map[string]string `json:"extra,omitempty"`
}

// TestEveryPropertyReachesTheLane: an input setting every property a tool declares (of
// every kind: string, integer, number, boolean, arrays, an object, a map) passes the
// pipeline and arrives at the lane unchanged, on the native lane and on a legacy one.
// (integration's TestEveryPropertyReachesTheLane walks every schema of the corpus.)
func TestEveryPropertyReachesTheLane(t *testing.T) {
	got := map[string]json.RawMessage{}
	ad := &fakeAdapter{}
	k, _ := newKernel(t, &probe{}, func(c *assemble.Config) {
		r := testRegistry(t, &probe{})
		spy := func(name string) func(context.Context, *tool.Env, json.RawMessage) tool.Output {
			return func(_ context.Context, _ *tool.Env, in json.RawMessage) tool.Output {
				got[name] = in
				return tool.OK(nil)
			}
		}
		// The schema inferred from kindsIn; the handler records the raw input it gets.
		kinds := native.New(tool.Spec{Name: "test:kinds", Description: "every kind", Annotations: tool.Annotations{ReadOnlyHint: true}},
			func(context.Context, *tool.Env, kindsIn) tool.Output { return tool.OK(nil) })
		require.NoError(t, r.Add(native.Raw(kinds.Spec, spy("test:kinds"))))
		c.Native, c.Lanes = r, ad.lanes()
		c.Commands = testCommands(t, "wu:edit", "wu:done")
		c.Policy = []kernel.Rule{{Decision: kernel.Allow}}
	})
	specs := map[string]tool.Spec{}
	for _, s := range k.Tools() {
		specs[s.Name] = s
	}
	for _, name := range []string{"test:kinds", "wu:edit", "wu:done"} {
		t.Run(name, func(t *testing.T) {
			spec, ok := specs[name]
			require.True(t, ok)
			full := fullInput(spec.InputSchema)
			require.NotEmpty(t, full)
			raw, err := json.Marshal(full)
			require.NoError(t, err)
			res := k.Call(context.Background(), req(name, string(raw)))
			require.True(t, res.Output.Success, "%s: %+v", raw, res.Output.Error)
			arrived := got[name]
			if route, _ := k.Route(name); route != kernel.RouteNative {
				require.NotEmpty(t, ad.calls)
				arrived = ad.calls[len(ad.calls)-1].Input
			}
			var back map[string]any
			require.NoError(t, json.Unmarshal(arrived, &back))
			want := map[string]any{}
			require.NoError(t, json.Unmarshal(raw, &want))
			for prop, v := range want {
				assert.Equal(t, v, back[prop], "property %s", prop)
			}
		})
	}
}

// fullInput sets every property of s to a value of its kind.
func fullInput(s *jsonschema.Schema) map[string]any {
	out := map[string]any{}
	for name, p := range s.Properties {
		out[name] = valueOf(p)
	}
	return out
}

func valueOf(s *jsonschema.Schema) any {
	t := s.Type
	for _, ty := range s.Types {
		if t == "" && ty != "null" {
			t = ty
		}
	}
	switch t {
	case "boolean":
		return true
	case "integer":
		return 7
	case "number":
		return 7.5
	case "array":
		return []any{valueOf(s.Items)}
	case "object":
		if s.AdditionalProperties != nil && len(s.Properties) == 0 {
			return map[string]any{"k": valueOf(s.AdditionalProperties)}
		}
		return fullInput(s)
	}
	return "x"
}
