// Scaffolded by `cmdbridge scaffold plan:edit` from newPlanEditApp (commands/initiative/plan_edit.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.PlanEdit, minus printing.

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

// PlanEditInput is plan:edit's input: one field per adapter schema property, in the same order.
//
// Content and Append are pointers: a given one, "" included, is the mode, as the flag is.
type PlanEditInput struct {
	ID      string  `json:"id" jsonschema:"WU-<n> or INIT-<id> whose plan to edit"`
	Section string  `json:"section" jsonschema:"section heading without '## '"`
	Content *string `json:"content,omitempty" jsonschema:"new body of the section"`
	Append  *string `json:"append,omitempty" jsonschema:"line(s) added at the end of the section"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (PlanEditInput) AdjustSchema(s *jsonschema.Schema) {
	shell.PlanIDs(s, "id")
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.AnyOf, Properties: []string{"content", "append"}}, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"content", "append"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "plan:edit",
		Domain:      "initiative",
		Description: "Replace or append to one section of a plan and commit it",
		Annotations: tool.Annotations{DestructiveHint: true},
	}, runPlanEdit))
}

// runPlanEdit serves plan:edit natively, as a writer (serveWrite): ops.PlanEdit edits the
// section and commits the plan when it changed.
func runPlanEdit(ctx context.Context, env *tool.Env, in PlanEditInput) tool.Output {
	op := ops.PlanEditInput{ID: in.ID, Section: in.Section, Content: in.Content, Append: in.Append}
	return serveWrite(ctx, env, nil, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.PlanEditData, ops.Notes, error) {
		return ops.PlanEdit(ctx, ws, rt, op)
	})
}
