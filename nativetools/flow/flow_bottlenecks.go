// Scaffolded by `cmdbridge scaffold flow:bottlenecks` from newFlowBottlenecksApp (commands/flow/flow_bottlenecks.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.FlowBottlenecks, minus printing.

package flow

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

// BottlenecksInput is flow:bottlenecks's input: one field per adapter schema property, in the same order.
type BottlenecksInput struct {
	// Limit is a pointer because 0 is not "absent": the default is 10, and 0 lists none.
	Limit *int64 `json:"limit,omitempty" jsonschema:"maximum number of bottlenecks listed (integer >= 0)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (BottlenecksInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["limit"].Default = json.RawMessage(`10`)
	shell.Range(s, "limit", jsonschema.Ptr(0), nil)
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "flow:bottlenecks",
		Description:  "Rank open WUs by how many open WUs they transitively block, and show the critical path",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runBottlenecks))
}

// runBottlenecks serves flow:bottlenecks natively: the environment, the workspace with the
// directories and lanes sections checked, read through the warm index, then
// ops.FlowBottlenecks (the schema refuses a negative limit).
func runBottlenecks(ctx context.Context, env *tool.Env, in BottlenecksInput) tool.Output {
	limit := int(shell.Or(in.Limit, 10))
	return shell.Serve(ctx, env, shell.Op[delivery.Bottlenecks]{Keys: ops.FlowKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, _ *delivery.Runtime) (delivery.Bottlenecks, ops.Notes, error) {
			return ops.FlowBottlenecks(ctx, ws, ops.FlowBottlenecksInput{Limit: limit})
		}})
}
