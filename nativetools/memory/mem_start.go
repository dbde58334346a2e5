// Scaffolded by `cmdbridge scaffold mem:start` from newMemStartApp (commands/memory/mem_start.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MemStart, minus printing.

package memory

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

// StartInput is mem:start's input: one field per adapter schema property, in the same order.
// AgentType and ContextTier are pointers: an absent one takes the command's default
// ("unknown", "full") while a given "" is recorded as "", as `--agent-type=` is.
type StartInput struct {
	WU          string  `json:"wu" jsonschema:"work unit the session works on (WU-<n>)"`
	AgentType   *string `json:"agent_type,omitempty" jsonschema:"kind of agent"`
	ContextTier *string `json:"context_tier,omitempty" jsonschema:"context tier the agent loaded"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, a pattern), so the
// schema native.New infers equals the adapter's.
func (StartInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "wu")
	s.Properties["agent_type"].Default = json.RawMessage(`"unknown"`)
	s.Properties["context_tier"].Default = json.RawMessage(`"full"`)
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "mem:start",
		Domain:      "memory",
		Description: "Record the start of an agent session on a WU as a memory node",
	}, runStart))
}

// The command's flag defaults.
const (
	defaultAgentType   = "unknown"
	defaultContextTier = "full"
)

// runStart serves mem:start natively: the workspace, then ops.MemStart inside the call's
// journal.
func runStart(ctx context.Context, env *tool.Env, in StartInput) tool.Output {
	op := ops.MemStartInput{WU: in.WU, AgentType: shell.Or(in.AgentType, defaultAgentType),
		ContextTier: shell.Or(in.ContextTier, defaultContextTier)}
	return shell.Serve(ctx, env, shell.Op[ops.MemStartData]{Append: true,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.MemStartData, ops.Notes, error) {
			return ops.MemStart(ctx, ws, rt, op)
		}})
}
