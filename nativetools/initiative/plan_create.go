// Scaffolded by `cmdbridge scaffold plan:create` from newPlanCreateApp (commands/initiative/plan_create.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.PlanCreate, minus printing.

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

// PlanCreateInput is plan:create's input: one field per adapter schema property, in the same order.
type PlanCreateInput struct {
	ID    string `json:"id" jsonschema:"WU-<n> or INIT-<id> (must exist)"`
	Title string `json:"title" jsonschema:"plan title"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (PlanCreateInput) AdjustSchema(s *jsonschema.Schema) {
	shell.PlanIDs(s, "id")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "plan:create",
		Domain:      "initiative",
		Description: "Create the plan file of a WU or initiative from the template and commit it",
	}, runPlanCreate))
}

// runPlanCreate serves plan:create natively, as a writer (serveWrite): ops.PlanCreate
// writes the plan from the template and commits it.
func runPlanCreate(ctx context.Context, env *tool.Env, in PlanCreateInput) tool.Output {
	op := ops.PlanCreateInput{ID: in.ID, Title: in.Title}
	return serveWrite(ctx, env, nil, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.PlanCreateData, ops.Notes, error) {
		return ops.PlanCreate(ctx, ws, rt, op)
	})
}
