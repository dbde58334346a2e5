package kernel_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// The host's store reaches every native call; a kernel without one hands out none.
func TestNativeCallsGetTheHostStore(t *testing.T) {
	for _, tc := range []struct {
		name  string
		store *tool.Store
	}{{"host store", tool.NewStore()}, {"none", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			var seen []*tool.Store
			r := native.NewRegistry()
			require.NoError(t, r.Add(native.New(tool.Spec{Name: "test:store", Description: "report the store",
				Annotations: tool.Annotations{ReadOnlyHint: true}},
				func(ctx context.Context, env *tool.Env, in struct{}) tool.Output {
					seen = append(seen, env.Store)
					return tool.OK(nil)
				})))
			k, _ := newKernel(t, &probe{}, func(cfg *assemble.Config) { cfg.Native, cfg.Store = r, tc.store })
			for i := 0; i < 2; i++ {
				res := k.Call(context.Background(), req("test:store", `{}`))
				require.True(t, res.Output.Success, "%+v", res.Output.Error)
			}
			require.Len(t, seen, 2)
			assert.Same(t, tc.store, seen[0])
			assert.Same(t, tc.store, seen[1])
		})
	}
}
