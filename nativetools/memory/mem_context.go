// Scaffolded by `cmdbridge scaffold mem:context` from newMemContextApp (commands/memory/mem_context.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MemContext, minus printing.

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

// ContextInput is mem:context's input: one field per adapter schema property, in the same order.
// An empty lane is no lane filter, as `--lane=` is. MaxSize is a pointer: absent is the
// workspace's cap (the schema refuses a cap below 1).
type ContextInput struct {
	WU      string `json:"wu" jsonschema:"work unit (WU-<n>)"`
	Lane    string `json:"lane,omitempty" jsonschema:"only project nodes of this lane (or of none)"`
	MaxSize *int64 `json:"max_size,omitempty" jsonschema:"size cap in bytes (default: memory.delegation_context_max_size) (integer >= 1)"`
}

// AdjustSchema gives wu the WU-<n> pattern and max_size the bound of the command's flags,
// so the schema equals the adapter's.
func (ContextInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "wu")
	shell.Range(s, "max_size", jsonschema.Ptr(1), nil)
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "mem:context",
		Domain:       "memory",
		Description:  "Render the memory context of a WU as size-capped markdown",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runContext))
}

// runContext serves mem:context natively: the workspace (through the host's warm index,
// the cap's configuration key checked), then ops.MemContext.
func runContext(ctx context.Context, env *tool.Env, in ContextInput) tool.Output {
	op := ops.MemContextInput{WU: in.WU, Lane: in.Lane}
	if in.MaxSize != nil {
		size := int(*in.MaxSize)
		op.MaxSize = &size
	}
	return shell.Serve(ctx, env, shell.Op[ops.MemContextData]{Keys: ops.MemContextKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, _ *delivery.Runtime) (ops.MemContextData, ops.Notes, error) {
			return ops.MemContext(ctx, ws, op)
		}})
}
