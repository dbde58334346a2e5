package kernel

import (
	"github.com/bmatcuk/doublestar/v4"

	"github.com/cmdbridge/cmdbridge/kernel/lane"
)

// LaneSandbox runs the call's routed implementation inside a bwrap sandbox built from the
// caller's scopes (lane.Sandbox; the lane is package kernel/sandbox's).
const LaneSandbox = lane.Sandbox

// requiresSandbox reports whether the tool must always run sandboxed (Config.Sandboxed
// holds tool names in any spelling, or doublestar globs over canonical names).
func (k *Kernel) requiresSandbox(name string) bool {
	for _, pattern := range k.cfg.Sandboxed {
		if canon, ok := k.names.Resolve(pattern); ok && canon == name {
			return true
		}
		if ok, _ := doublestar.Match(pattern, name); ok {
			return true
		}
	}
	return false
}
