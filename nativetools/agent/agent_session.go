// Scaffolded by `cmdbridge scaffold agent:session` from newAgentSessionApp (commands/agent/agent_session.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.AgentSession, minus printing.

package agent

import (
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// SessionInput is agent:session's input: one field per adapter schema property, in the same order.
type SessionInput struct {
	WU        string  `json:"wu" jsonschema:"the WU the session works on (WU-<n>)"`
	Tier      int64   `json:"tier" jsonschema:"context tier (integer from 1 to 3)"`
	AgentType *string `json:"agent_type,omitempty" jsonschema:"agent type, also recorded as client type"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (SessionInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "wu")
	s.Properties["tier"].Minimum = jsonschema.Ptr(1.0)
	s.Properties["tier"].Maximum = jsonschema.Ptr(3.0)
	s.Properties["agent_type"].Default = json.RawMessage(`"claude-code"`)
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "agent:session",
		Description: "Start an agent session on a WU (runtime state in .lumenflow/sessions/current.json)",
	}, runSession))
}

// runSession serves agent:session natively, as a writer (shell.Serve): ops.AgentSession in
// the call's journal. An absent agent_type is the default, claude-code.
func runSession(ctx context.Context, env *tool.Env, in SessionInput) tool.Output {
	op := ops.AgentSessionInput{WU: in.WU, Tier: int(in.Tier), AgentType: shell.Or(in.AgentType, "claude-code")}
	return shell.Serve(ctx, env, shell.Op[ops.AgentSessionData]{Write: true,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.AgentSessionData, ops.Notes, error) {
			return ops.AgentSession(ctx, ws, rt, op)
		}})
}
