package kernel_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// A native tool with a command's exact name is its migrated implementation: routes
// choose the lane, a request may force one.
func TestMigrationPairRoutes(t *testing.T) {
	type claimIn struct {
		ID    string `json:"id"`
		Force bool   `json:"force,omitempty"`
	}
	withNative := func(c *assemble.Config) {
		reg := testRegistry(t, &probe{})
		require.NoError(t, reg.Add(native.New(tool.Spec{Name: "wu:edit"},
			func(ctx context.Context, env *tool.Env, in claimIn) tool.Output { return tool.OK("native " + in.ID) })))
		c.Native = reg
		c.Commands = testCommands(t, "wu:edit") // a command routes.json leaves on the default
	}
	cases := []struct {
		name   string
		routes map[string]string
		lane   string
		want   string
		route  string
	}{
		{"default is adapter", nil, "", "adapter", kernel.RouteAdapter},
		{"routed native", map[string]string{"WuEdit": "native"}, "", "native", kernel.RouteNative},
		{"shadow serves adapter", map[string]string{"wu_edit": "shadow"}, "", "adapter", kernel.RouteShadow},
		{"forced native", nil, kernel.LaneNative, "native", kernel.RouteAdapter},
		{"forced adapter", map[string]string{"wu:edit": "native"}, kernel.LaneAdapter, "adapter", kernel.RouteNative},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k, _ := newKernel(t, &probe{}, withNative, func(c *assemble.Config) { c.Routes = tc.routes })
			route, ok := k.Route("wu-edit")
			require.True(t, ok)
			assert.Equal(t, tc.route, route)
			r := req("wu:edit", `{"id":"WU-7"}`)
			r.Lane = tc.lane
			res := k.Call(context.Background(), r)
			require.True(t, res.Output.Success, "%+v", res.Output.Error)
			assert.Equal(t, tc.want, res.Receipt.Lane)
			if tc.want == "native" {
				assert.Equal(t, "native WU-7", res.Output.Data)
			} else {
				assert.JSONEq(t, `{"id":"WU-7"}`, string(res.Output.Data.(json.RawMessage)))
			}
		})
	}
}

func TestDefaultRoutesTable(t *testing.T) {
	rt := kernel.DefaultRoutes()
	assert.Equal(t, kernel.RouteAdapter, rt.Defaults.Command)
	assert.Equal(t, kernel.RouteNative, rt.Defaults.NativeOnly)
	assert.Empty(t, rt.Routes, "no toolkit package holds a corpus route")
}
