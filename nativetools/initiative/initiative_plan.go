// Scaffolded by `cmdbridge scaffold initiative:plan` from newInitiativePlanApp (commands/initiative/initiative_plan.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.InitiativePlan, minus printing.

package initiative

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// PlanInput is initiative:plan's input: one field per adapter schema property, in the same order.
type PlanInput struct {
	Initiative string `json:"initiative" jsonschema:"initiative id or slug"`
	Plan       string `json:"plan,omitempty" jsonschema:"plan path inside plansDir or lumenflow://plans/ URI"`
	Create     bool   `json:"create,omitempty" jsonschema:"create <plansDir>/<id>-plan.md from the template"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (PlanInput) AdjustSchema(s *jsonschema.Schema) {
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.AnyOf, Properties: []string{"plan", "create"}}, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"plan", "create"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "initiative:plan",
		Description: "Link a plan to an initiative, creating it from the template with create=true",
		Annotations: tool.Annotations{DestructiveHint: true},
	}, runPlan))
}

// runPlan serves initiative:plan natively, as a writer (serveWrite): ops.InitiativePlan
// links the plan (made first from the template with create) and commits what changed.
func runPlan(ctx context.Context, env *tool.Env, in PlanInput) tool.Output {
	op := ops.InitiativePlanInput{Initiative: in.Initiative, Plan: in.Plan, Create: in.Create}
	return serveWrite(ctx, env, nil, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.InitiativePlanData, ops.Notes, error) {
		return ops.InitiativePlan(ctx, ws, rt, op)
	})
}
