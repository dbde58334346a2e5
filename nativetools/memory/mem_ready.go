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
// The schema refuses a type that is not one of the choices ("" included), so an empty
// type is an absent one: every type.
type ReadyInput struct {
	WU   string `json:"wu" jsonschema:"work unit (WU-<n>)"`
	Type string `json:"type,omitempty" jsonschema:"only nodes of this type (session|discovery|checkpoint|note|summary)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (a pattern, choices), so the
// schema native.New infers equals the adapter's.
func (ReadyInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "wu")
	shell.Choices(s, "type", delivery.MemoryTypes...)
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

// runReady serves mem:ready natively: the workspace (through the host's warm index), then
// ops.MemReady.
func runReady(ctx context.Context, env *tool.Env, in ReadyInput) tool.Output {
	return shell.Serve(ctx, env, shell.Op[ops.MemReadyData]{
		Run: func(ctx context.Context, ws *delivery.Workspace, _ *delivery.Runtime) (ops.MemReadyData, ops.Notes, error) {
			return ops.MemReady(ctx, ws, ops.MemReadyInput{WU: in.WU, Type: in.Type})
		}})
}
