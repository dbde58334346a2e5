// Scaffolded by `cmdbridge scaffold plan:link` from newPlanLinkApp (commands/initiative/plan_link.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.PlanLink, minus printing.

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

// LinkInput is plan:link's input: one field per adapter schema property, in the same order.
type LinkInput struct {
	ID   string `json:"id" jsonschema:"WU-<n> or INIT-<id>"`
	Plan string `json:"plan" jsonschema:"plan path inside plansDir or lumenflow://plans/ URI"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (LinkInput) AdjustSchema(s *jsonschema.Schema) {
	shell.PlanIDs(s, "id")
	shell.MinLength(s, 1, "plan")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "plan:link",
		Domain:      "initiative",
		Description: "Link an existing plan to a WU (plan, spec_refs) or initiative (related_plan)",
		Annotations: tool.Annotations{DestructiveHint: true, IdempotentHint: true},
	}, runLink))
}

// runLink serves plan:link natively, as a writer (serveWrite): ops.PlanLink links the
// plan and commits the changed spec.
func runLink(ctx context.Context, env *tool.Env, in LinkInput) tool.Output {
	op := ops.PlanLinkInput{ID: in.ID, Plan: in.Plan}
	return serveWrite(ctx, env, nil, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.PlanLinkData, ops.Notes, error) {
		return ops.PlanLink(ctx, ws, rt, op)
	})
}
