package integration_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/nativetools"
	_ "github.com/cmdbridge/cmdbridge/nativetools/all"
	"github.com/cmdbridge/cmdbridge/nativetools/schematest"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// TestEveryPropertyReachesTheLane walks every tool schema of the corpus (its native
// tools, cloned as spies, and its commands, served by lanes that record their input) and proves that an input setting every declared
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
	ad := &recordingLanes{}
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace: t.TempDir(),
			Evidence:  kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
			Policy:    []kernel.Rule{{Decision: kernel.Allow}},
		},
		Native:   spies,
		Commands: commands.Default,
		Lanes:    ad.lanes(),
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
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
			if res := k.Call(context.Background(), callReq(spec.Name, string(raw))); !res.Output.Success {
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
				res := k.Call(context.Background(), callReq(spec.Name, string(raw)))
				require.True(t, res.Output.Success, "%s: %+v", raw, res.Output.Error)
				var arrived json.RawMessage
				if route, _ := k.Route(spec.Name); route == kernel.RouteNative {
					arrived = got[spec.Name]
				} else {
					arrived = ad.last()
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
		if k.Call(context.Background(), callReq(name, string(raw))).Output.Success {
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

// recordingLanes stand in for both legacy lanes: each call answers its input back and
// is recorded, one at a time like the real adapter lock.
type recordingLanes struct {
	mu     sync.Mutex
	inputs []json.RawMessage
}

func (r *recordingLanes) lanes() []kernel.Lane {
	return []kernel.Lane{recordingLane{r, kernel.LaneAdapter}, recordingLane{r, kernel.LaneSubprocess}}
}

// last is the input of the latest call.
func (r *recordingLanes) last() json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.inputs[len(r.inputs)-1]
}

// recordingLane is one legacy lane of a recordingLanes.
type recordingLane struct {
	r    *recordingLanes
	name string
}

func (l recordingLane) Name() string { return l.name }

func (l recordingLane) Run(ctx context.Context, call kernel.LaneCall) tool.Output {
	l.r.mu.Lock()
	defer l.r.mu.Unlock()
	l.r.inputs = append(l.r.inputs, call.Input)
	return tool.OK(json.RawMessage(call.Input)).WithMeta("exit_code", 0)
}
