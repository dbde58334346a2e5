// Scaffolded by `cmdbridge scaffold mem:signal` from newMemSignalApp (commands/memory/mem_signal.go).
// The Input struct reproduces the adapter's input schema; write the handler, then delete the
// NOT_IMPLEMENTED test and route the tool native once its parity script passes.

package memory

import (
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// SignalInput is mem:signal's input: one field per adapter schema property, in the same order.
type SignalInput struct {
	Message     string `json:"message" jsonschema:"signal text (non-empty once trimmed)"`
	WU          string `json:"wu,omitempty" jsonschema:"work unit the signal is about (default: the current session's) (WU-<n>)"`
	Lane        string `json:"lane,omitempty" jsonschema:"lane the signal is about"`
	Type        string `json:"type,omitempty" jsonschema:"signal type"`
	Sender      string `json:"sender,omitempty" jsonschema:"who sends it"`
	TargetAgent string `json:"target_agent,omitempty" jsonschema:"agent the signal is for"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema nativetools.New infers equals the adapter's.
func (SignalInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["type"].Default = json.RawMessage(`"coordination"`)
	s.Properties["sender"].Default = json.RawMessage(`"system"`)
}

func init() {
	nativetools.Register(nativetools.New(tool.Spec{
		Name:        "mem:signal",
		Domain:      "memory",
		Description: "Send a coordination signal to other agents",
	}, runSignal))
}

// runSignal serves mem:signal natively. Until it is written the tool answers NOT_IMPLEMENTED, so its
// parity script fails and its route stays adapter.
func runSignal(ctx context.Context, env *tool.Env, in SignalInput) tool.Output {
	return tool.Fail(tool.CodeNotImplemented, "mem:signal: the native handler is not written yet")
}
