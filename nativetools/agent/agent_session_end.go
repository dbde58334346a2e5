// Scaffolded by `cmdbridge scaffold agent:session-end` from newAgentSessionEndApp (commands/agent/agent_session_end.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.AgentSessionEnd, minus printing.

package agent

import (
	"context"

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

// runSessionEnd serves agent:session-end natively, as a writer: the environment, the
// workspace from the disk, then ops.AgentSessionEnd in the call's journal.
func runSessionEnd(ctx context.Context, env *tool.Env, in SessionEndInput) tool.Output {
	c, fail := shell.Start(env)
	if fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	ws, err := ops.OpenWorkspace(ctx, env.Dir, shell.LookupEnv(env))
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	data, notes, err := shell.Journaled(ctx, c.RT, ws, func() (ops.AgentSessionEndData, ops.Notes, error) {
		return ops.AgentSessionEnd(ctx, ws, c.RT)
	})
	shell.Wrote(env, ws.Root)
	return shell.Result(data, notes, err)
}
