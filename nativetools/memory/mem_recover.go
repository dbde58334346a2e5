// Scaffolded by `cmdbridge scaffold mem:recover` from newMemRecoverApp (commands/memory/mem_recover.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MemRecover, minus printing.

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

// RecoverInput is mem:recover's input: one field per adapter schema property, in the same order.
//
// MaxSize is a pointer: an absent max_size is the default (8192).
type RecoverInput struct {
	WU      string `json:"wu" jsonschema:"work unit (WU-<n>)"`
	MaxSize *int64 `json:"max_size,omitempty" jsonschema:"size cap in bytes (integer >= 1)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (RecoverInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "wu")
	s.Properties["max_size"].Default = json.RawMessage(`8192`)
	s.Properties["max_size"].Minimum = jsonschema.Ptr(1.0)
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "mem:recover",
		Domain:       "memory",
		Description:  "Render a post-compaction recovery block for a WU",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runRecover))
}

// runRecover serves mem:recover natively, as a read (through the warm index when the
// host has one): ops.MemRecover renders the block.
func runRecover(ctx context.Context, env *tool.Env, in RecoverInput) tool.Output {
	op := ops.MemRecoverInput{WU: in.WU}
	if in.MaxSize != nil {
		size := int(*in.MaxSize)
		op.MaxSize = &size
	}
	return shell.Serve(ctx, env, shell.Op[ops.MemRecoverData]{Keys: ops.MemRecoverKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.MemRecoverData, ops.Notes, error) {
			return ops.MemRecover(ctx, ws, rt, op)
		}})
}
