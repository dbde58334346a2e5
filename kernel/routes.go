package kernel

import (
	"fmt"

	"github.com/cmdbridge/cmdbridge/kernel/lane"
)

// Route values (lane.RouteAdapter, lane.RouteNative, lane.RouteShadow).
const (
	RouteAdapter = lane.RouteAdapter
	RouteNative  = lane.RouteNative
	RouteShadow  = lane.RouteShadow
)

// Lane values a Request may force (lane.Adapter, lane.Subprocess, lane.Native).
const (
	LaneAdapter    = lane.Adapter
	LaneSubprocess = lane.Subprocess
	LaneNative     = lane.Native
)

// RouteTable is the lane of every tool: a default for commands and one for native-only
// tools, and routes per tool.
type RouteTable struct {
	Defaults struct {
		Command    string `json:"command"`
		NativeOnly string `json:"native_only"`
	} `json:"defaults"`
	Routes map[string]string `json:"routes"`
}

// DefaultRoutes is the table every kernel starts from: commands on the adapter lane,
// native-only tools on the native lane, no route per tool. The native registry's routes
// (native.Registry.Routes) and Config.Routes are laid over it.
func DefaultRoutes() RouteTable {
	var t RouteTable
	t.Defaults.Command, t.Defaults.NativeOnly = RouteAdapter, RouteNative
	t.Routes = map[string]string{}
	return t
}

// route decides the lane of one tool and checks that lane can serve it.
func (t RouteTable) route(name string, hasCommand, hasNative bool, override map[string]string) (string, error) {
	r := t.Defaults.Command
	if !hasCommand {
		r = t.Defaults.NativeOnly
	}
	if v, ok := t.Routes[name]; ok {
		r = v
	}
	if v, ok := override[name]; ok {
		r = v
	}
	switch {
	case r == RouteAdapter && hasCommand, r == RouteNative && hasNative, r == RouteShadow && hasCommand && hasNative:
		return r, nil
	case r != RouteAdapter && r != RouteNative && r != RouteShadow:
		return "", fmt.Errorf("tool %s: unknown route %q", name, r)
	}
	return "", fmt.Errorf("tool %s: route %q needs an implementation it does not have (command: %v, native: %v)", name, r, hasCommand, hasNative)
}
