// Scaffolded by `cmdbridge scaffold mem:ready` from newMemReadyApp (commands/memory/mem_ready.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MemReady, minus printing.

package memory

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// ReadyInput is mem:ready's input: one field per adapter schema property, in the same order.
// WU is required: an absent and an empty wu are both USAGE, so "" needs no pointer. Type is
// a pointer: absent is every type, while "" is not one of the choices (`--type=` is USAGE).
type ReadyInput struct {
	WU   string  `json:"wu" jsonschema:"work unit (WU-<n>)"`
	Type *string `json:"type,omitempty" jsonschema:"only nodes of this type (session|discovery|checkpoint|note|summary)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (ReadyInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["type"].Enum = []any{"session", "discovery", "checkpoint", "note", "summary"}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "mem:ready",
		Domain:       "memory",
		Description:  "List the open memory nodes of a WU, highest priority first",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runReady))
}

// runReady serves mem:ready natively: the command's argv checks (wu, then type, then the
// missing wu), then the workspace (through the host's warm index) and ops.MemReady.
func runReady(ctx context.Context, env *tool.Env, in ReadyInput) tool.Output {
	if _, fail := shell.Start(env); fail != nil {
		return *fail
	}
	wu := present(in.WU) // absent or empty: the required flag's check reports it
	if err := firstErr(checkWU("wu", wu), checkEnum("type", in.Type, delivery.MemoryTypes), requireFlag("wu", wu)); err != nil {
		return result(nil, ops.Notes{}, err)
	}
	ws, err := shell.ReadWorkspace(ctx, env)
	if err != nil {
		return result(nil, ops.Notes{}, err)
	}
	data, notes, err := ops.MemReady(ctx, ws, ops.MemReadyInput{WU: in.WU, Type: value(in.Type)})
	return result(data, notes, err)
}
