// Scaffolded by `cmdbridge scaffold mem:signal` from newMemSignalApp (commands/memory/mem_signal.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MemSignal, minus printing.

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

// SignalInput is mem:signal's input: one field per adapter schema property, in the same order.
// The schema requires message and refuses a wu that is not WU-<n> ("" included), so an
// empty wu is an absent one: the session's. An empty type or sender takes the command's
// default, as `--type=` does.
type SignalInput struct {
	Message     string `json:"message" jsonschema:"signal text (non-empty once trimmed)"`
	WU          string `json:"wu,omitempty" jsonschema:"work unit the signal is about (default: the current session's) (WU-<n>)"`
	Lane        string `json:"lane,omitempty" jsonschema:"lane the signal is about"`
	Type        string `json:"type,omitempty" jsonschema:"signal type"`
	Sender      string `json:"sender,omitempty" jsonschema:"who sends it (through cmdbridge: the authenticated caller, which it may only repeat)"`
	TargetAgent string `json:"target_agent,omitempty" jsonschema:"agent the signal is for"`
}

// AdjustSchema sets the keywords a struct tag cannot carry (defaults, a pattern), so the
// schema equals the adapter's.
func (SignalInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["type"].Default = json.RawMessage(`"coordination"`)
	s.Properties["sender"].Default = json.RawMessage(`"system"`)
	shell.WUIDs(s, "wu")
	shell.NonBlank(s, "message")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "mem:signal",
		Domain:      "memory",
		Description: "Send a coordination signal to other agents",
	}, runSignal))
}

// runSignal serves mem:signal natively: the message and sender checks (VALIDATION, before
// the workspace, as in the command), then the workspace and ops.MemSignal.
func runSignal(ctx context.Context, env *tool.Env, in SignalInput) tool.Output {
	op := ops.MemSignalInput{Message: in.Message, WU: in.WU, Lane: in.Lane,
		Type: in.Type, Sender: in.Sender, TargetAgent: in.TargetAgent, Caller: env.Caller}
	return shell.Serve(ctx, env, shell.Op[ops.MemSignalData]{Argv: op.Check(), Write: true,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.MemSignalData, ops.Notes, error) {
			return ops.MemSignal(ctx, ws, rt, op)
		}})
}
