package kernel

import (
	"context"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/sandbox"
	"github.com/cmdbridge/cmdbridge/tool"
)

// LaneSandbox runs the call's routed implementation inside a bwrap sandbox built from the
// caller's scopes (package kernel/sandbox).
const LaneSandbox = "sandbox"

// SandboxRunner is what the sandbox lane runs calls through (Config.Sandbox):
// *sandbox.Runner, or a lazy wrapper around one.
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

// sandboxLane runs a call's routed implementation (native when routed native or when
// the tool has no command, else the in-process adapter) inside bwrap with the caller's
// resolved scopes, the kernel's receipt id, and only the declared environment
// (Config.Legacy.Env and the caller). Without a runner the call is refused, never run
// unconfined.
type sandboxLane struct {
	k      *Kernel
	runner SandboxRunner
}

// Name is LaneSandbox.
func (sandboxLane) Name() string { return LaneSandbox }

// Run hands the call to the runner and records the host class and profile for the
// receipt.
func (l sandboxLane) Run(ctx context.Context, call LaneCall) tool.Output {
	k := l.k
	name := call.Spec.Name
	if l.runner == nil {
		call.Notes.SetSandbox(&evidence.SandboxNote{Host: string(sandbox.HostAbsent)})
		return tool.FailDetails(tool.CodeSandboxUnavailable, map[string]any{"host": sandbox.HostAbsent},
			"%s must run in the sandbox and this kernel has none configured", name)
	}
	entry := sandbox.Entry{Lane: sandbox.LaneAdapter, Command: name}
	if call.Command == nil || (call.Route == RouteNative && call.Native != nil) {
		entry = sandbox.Entry{Lane: sandbox.LaneNative, Native: name}
	}
	out, info := l.runner.Run(ctx, sandbox.Request{
		ToolName:      name,
		HandlerEntry:  entry,
		Input:         call.Input,
		ScopeEnforced: sandbox.Scopes{Read: k.resolveScopes(call.Caller.Read), Write: k.resolveScopes(call.Caller.Write)},
		ReceiptID:     call.ReceiptID,
		Workspace:     call.Dir,
		Env:           tool.WithCaller(k.cfg.Legacy.Env, call.Caller.Subject),
		Network:       call.Spec.Network,
		Hidden:        []string{k.state.Root},
		Stdin:         call.Stdin,
	})
	if inner, ok := out.Metadata["lane"]; ok {
		// The receipt's lane is the sandbox; what ran inside it is kept apart.
		out.Metadata["sandbox_inner_lane"] = inner
		delete(out.Metadata, "lane")
	}
	call.Notes.SetSandbox(&evidence.SandboxNote{Host: string(info.Host), ProfileHash: info.ProfileHash, Degraded: info.Degraded})
	return out
}
