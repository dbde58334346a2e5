// Scaffolded by `cmdbridge scaffold plan:promote` from newPlanPromoteApp (commands/initiative/plan_promote.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.PlanPromote, minus printing.

package initiative

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

// PromoteInput is plan:promote's input: one field per adapter schema property, in the same order.
type PromoteInput struct {
	ID    string `json:"id" jsonschema:"WU-<n> or INIT-<id> whose plan to promote"`
	Force bool   `json:"force,omitempty" jsonschema:"skip the completeness check"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (PromoteInput) AdjustSchema(s *jsonschema.Schema) {
	shell.PlanIDs(s, "id")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "plan:promote",
		Domain:      "initiative",
		Description: "Mark a complete plan as approved and commit it",
		Annotations: tool.Annotations{IdempotentHint: true},
	}, runPromote))
}

// runPromote serves plan:promote natively, as a writer (serveWrite): ops.PlanPromote marks a
// complete plan approved and commits it.
func runPromote(ctx context.Context, env *tool.Env, in PromoteInput) tool.Output {
	op := ops.PlanPromoteInput{ID: in.ID, Force: in.Force}
	return serveWrite(ctx, env, nil, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.PlanPromoteData, ops.Notes, error) {
		return ops.PlanPromote(ctx, ws, rt, op)
	})
}
