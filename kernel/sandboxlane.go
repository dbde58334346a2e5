package kernel

import (
	"context"
	"encoding/json"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/sandbox"
	"github.com/cmdbridge/cmdbridge/tool"
)

// LaneSandbox runs the call's routed implementation inside a bwrap sandbox built from the
// caller's scopes (package kernel/sandbox).
const LaneSandbox = "sandbox"

// SandboxRunner is the sandbox lane: *sandbox.Runner, or a lazy wrapper around one.
type SandboxRunner interface {
	Run(ctx context.Context, req sandbox.Request) (tool.Output, sandbox.Info)
	Host() sandbox.Host
}

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

// sandboxed returns the run of a sandbox-lane call: the routed implementation (native
// when routed native, else the in-process adapter) runs inside bwrap with the caller's
// resolved scopes, the kernel's receipt id, and only the declared environment. Without a
// configured sandbox the call is refused, never run unconfined.
func (c *call) sandboxed(e *entry, input json.RawMessage) func(ctx context.Context) tool.Output {
	k := c.k
	entry := sandbox.Entry{Lane: sandbox.LaneAdapter, Command: e.spec.Name}
	if e.command == nil || (e.route == RouteNative && e.native != nil) {
		entry = sandbox.Entry{Lane: sandbox.LaneNative, Native: e.spec.Name}
	}
	write := k.resolveScopes(c.req.Caller.Write)
	req := sandbox.Request{
		ToolName:      e.spec.Name,
		HandlerEntry:  entry,
		Input:         input,
		ScopeEnforced: sandbox.Scopes{Read: k.resolveScopes(c.req.Caller.Read), Write: write},
		ReceiptID:     c.rec.ID,
		Workspace:     k.workspace,
		Env:           tool.WithCaller(k.cfg.AdapterOptions.Env, c.req.Caller.Subject),
		Network:       e.spec.Network,
		Hidden:        []string{k.state.Root},
		Stdin:         c.req.Stdin,
	}
	return func(ctx context.Context) tool.Output {
		if k.cfg.Sandbox == nil {
			c.sbox.Store(&evidence.SandboxNote{Host: string(sandbox.HostAbsent)})
			return tool.FailDetails(tool.CodeSandboxUnavailable, map[string]any{"host": sandbox.HostAbsent},
				"%s must run in the sandbox and this kernel has none configured", e.spec.Name)
		}
		out, info := k.cfg.Sandbox.Run(ctx, req)
		if inner, ok := out.Metadata["lane"]; ok {
			// The receipt's lane is the sandbox; what ran inside it is kept apart.
			out.Metadata["sandbox_inner_lane"] = inner
			delete(out.Metadata, "lane")
		}
		c.sbox.Store(&evidence.SandboxNote{Host: string(info.Host), ProfileHash: info.ProfileHash, Degraded: info.Degraded})
		return out
	}
}
