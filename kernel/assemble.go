package kernel

// This file is where the kernel meets what its lanes run: the one file of the package
// that imports adapter, tool/legacy and tool/native. It turns Config's registries into
// the kernel's neutral descriptions of tools (source) and builds the default lanes from
// their packages; the rest of the kernel knows tools by name, spec and route, and lanes
// by the contract of package kernel/lane.

import (
	"errors"
	"fmt"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/kernel/sandbox"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// source is one implementation of a tool as the registry sees it, whatever runs it: its
// name and aliases, its domain, and its spec.
type source struct {
	name    string
	aliases []string
	domain  string
	// spec describes the implementation; an error makes the tool unavailable.
	spec func() (tool.Spec, error)
}

// sources describes Config.Commands (their specs derived by the adapter) and
// Config.Native, and returns the native registry's routes.
func (cfg *Config) sources() (commands, natives []source, routes map[string]string) {
	if cfg.Commands != nil {
		for _, c := range cfg.Commands.All() {
			commands = append(commands, source{name: c.Name, aliases: c.Aliases, domain: c.Domain,
				spec: func() (tool.Spec, error) { return legacySpec(c) }})
		}
	}
	if cfg.Native != nil {
		for _, t := range cfg.Native.All() {
			natives = append(natives, source{name: t.Spec.Name, domain: t.Spec.Domain,
				spec: func() (tool.Spec, error) { return t.Spec, nil }})
		}
		routes = cfg.Native.Routes()
	}
	return commands, natives, routes
}

// legacySpec is adapter.Spec(c), a panic (in the command's New, say) turned into an
// error.
func legacySpec(c legacy.Command) (spec tool.Spec, err error) {
	defer func() {
		if r := recover(); r != nil {
			spec, err = tool.Spec{}, fmt.Errorf("deriving its spec panicked: %v", r)
		}
	}()
	return adapter.Spec(c)
}

// undeclaredWarning is the warning of a command whose program declares no effects for
// it (served as destructive); a refusal says how to declare them.
const undeclaredWarning = adapter.UndeclaredWarning

// buildLanes makes the kernel's lanes: the built-in ones, each from its own package
// (adapter.Lane, native.Lane, sandbox.Lane), then Config.Lanes in place of the built-in
// lane of the same name.
func (k *Kernel) buildLanes() error {
	if k.cfg.Legacy.Dir != "" || k.cfg.Legacy.Stdin != nil {
		// Silently ignoring them would run a command somewhere the host did not mean.
		return errors.New("legacy lane settings: Dir and Stdin are set per call (the workspace, Request.Stdin), not in Config.Legacy")
	}
	k.lanes = map[string]Lane{
		LaneAdapter:    adapter.NewLane(LaneAdapter, k.cfg.Commands, k.cfg.Legacy),
		LaneSubprocess: adapter.NewLane(LaneSubprocess, k.cfg.Commands, k.cfg.Legacy),
		LaneNative:     native.NewLane(k.cfg.Native, k.env),
		LaneSandbox:    sandbox.NewLane(k.cfg.Sandbox, k.cfg.Legacy.Env),
	}
	replaced := map[string]bool{}
	for _, l := range k.cfg.Lanes {
		name := l.Name()
		if _, ok := k.lanes[name]; !ok {
			return fmt.Errorf("lane %q: no such lane (want %s, %s, %s or %s)", name, LaneAdapter, LaneSubprocess, LaneNative, LaneSandbox)
		}
		if replaced[name] {
			return fmt.Errorf("lane %q: given twice", name)
		}
		replaced[name] = true
		k.lanes[name] = l
	}
	return nil
}
