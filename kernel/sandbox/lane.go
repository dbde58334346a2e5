package sandbox

import (
	"context"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/lane"
	"github.com/cmdbridge/cmdbridge/tool"
)

// CallRunner is what the sandbox lane runs calls through: a *Runner, or a lazy wrapper
// around one (a host that probes bwrap on the first sandboxed call).
type CallRunner interface {
	Run(ctx context.Context, req Request) (tool.Output, Info)
	Host() Host
}

// Lane is the kernel's sandbox lane (package kernel/lane, lane.Sandbox): it runs a
// call's routed implementation (native when routed native, else the legacy command
// in-process) inside bwrap through a CallRunner, with the call's resolved scopes, the
// kernel's receipt id, the directories the call must not see hidden, and only the
// declared environment and the caller. Without a runner every call is refused with
// SANDBOX_UNAVAILABLE, never run unconfined. Each run's host class and profile hash go
// to the receipt (lane.Notes.SetSandbox).
type Lane struct {
	runner CallRunner
	env    map[string]string
}

// NewLane returns the sandbox lane over runner (nil: none); env is the declared
// environment the tool gets besides the caller.
func NewLane(runner CallRunner, env map[string]string) Lane {
	return Lane{runner: runner, env: env}
}

// Name is lane.Sandbox.
func (Lane) Name() string { return lane.Sandbox }

// Run hands the call to the runner and records the host class and profile for the
// receipt.
func (l Lane) Run(ctx context.Context, call lane.Call) tool.Output {
	name := call.Spec.Name
	if l.runner == nil {
		call.Notes.SetSandbox(&evidence.SandboxNote{Host: string(HostAbsent)})
		return tool.FailDetails(tool.CodeSandboxUnavailable, map[string]any{"host": HostAbsent},
			"%s must run in the sandbox and this kernel has none configured", name)
	}
	// A tool routed native has a native implementation; any other route names the
	// legacy command (a tool without one is always routed native).
	entry := Entry{Lane: LaneAdapter, Command: name}
	if call.Route == lane.RouteNative {
		entry = Entry{Lane: LaneNative, Native: name}
	}
	out, info := l.runner.Run(ctx, Request{
		ToolName:      name,
		HandlerEntry:  entry,
		Input:         call.Input,
		ScopeEnforced: Scopes{Read: call.Scopes.Read, Write: call.Scopes.Write},
		ReceiptID:     call.ReceiptID,
		Workspace:     call.Dir,
		Env:           tool.WithCaller(l.env, call.Caller.Subject),
		Network:       call.Spec.Network,
		Hidden:        call.Hidden,
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
