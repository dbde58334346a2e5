package kernel

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// Route values.
const (
	RouteAdapter = "adapter"
	RouteNative  = "native"
	RouteShadow  = "shadow"
)

// Lane values a Request may force.
const (
	LaneAdapter    = "adapter"
	LaneSubprocess = "subprocess"
	LaneNative     = "native"
)

//go:embed routes.json
var routesJSON []byte

// RouteTable is the parsed routes.json.
type RouteTable struct {
	Defaults struct {
		Command    string `json:"command"`
		NativeOnly string `json:"native_only"`
	} `json:"defaults"`
	Routes map[string]string `json:"routes"`
}

// DefaultRoutes returns the embedded route table.
func DefaultRoutes() (RouteTable, error) {
	var t RouteTable
	if err := json.Unmarshal(routesJSON, &t); err != nil {
		return t, fmt.Errorf("routes.json: %w", err)
	}
	return t, nil
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
