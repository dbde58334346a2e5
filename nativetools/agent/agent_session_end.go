// Scaffolded by `cmdbridge scaffold agent:session-end` from newAgentSessionEndApp (commands/agent/agent_session_end.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.AgentSessionEnd, minus printing.

package agent

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// SessionEndInput is agent:session-end's input: one field per adapter schema property, in the same order.
type SessionEndInput struct{}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "agent:session-end",
		Description: "End the active agent session and report its incident counters",
		Annotations: tool.Annotations{IdempotentHint: true},
	}, runSessionEnd))
}

// runSessionEnd serves agent:session-end natively, as a writer (shell.Serve):
// ops.AgentSessionEnd in the call's journal.
func runSessionEnd(ctx context.Context, env *tool.Env, _ SessionEndInput) tool.Output {
	return shell.Serve(ctx, env, shell.Op[ops.AgentSessionEndData]{Write: true,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.AgentSessionEndData, ops.Notes, error) {
			return ops.AgentSessionEnd(ctx, ws, rt)
		}})
}
