// Scaffolded by `cmdbridge scaffold wu:status` from newWUStatusApp (commands/wu/wu_status.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around delivery/ops, minus the printing.

package wu

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

// StatusInput is wu:status's input: one field per adapter schema property, in the same order.
// The schema refuses an empty id, so "" is "not given" (the id is then inferred).
type StatusInput struct {
	ID string `json:"id,omitempty" jsonschema:"WU to show (default: inferred from the lane branch) (WU-<n>)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry, so the schema native.New
// infers equals the adapter's.
func (StatusInput) AdjustSchema(s *jsonschema.Schema) { shell.WUIDs(s, "id") }

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "wu:status",
		Description:  "Show one WU with its event state, lock, worktree and location",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runStatus))
}

// runStatus serves wu:status natively: ops.WUStatus with the id given by the one "id"
// property (the command's --id flag or its positional, which the adapter schema merges).
func runStatus(ctx context.Context, env *tool.Env, in StatusInput) tool.Output {
	return serveRead(ctx, env, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WUStatusData, ops.Notes, error) {
		return ops.WUStatus(ctx, ws, rt, ops.WUStatusInput{ID: in.ID})
	})
}
