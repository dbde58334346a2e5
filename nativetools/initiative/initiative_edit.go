// Scaffolded by `cmdbridge scaffold initiative:edit` from newInitiativeEditApp (commands/initiative/initiative_edit.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.InitiativeEdit, minus printing.

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

// EditInput is initiative:edit's input: one field per adapter schema property, in the same order.
// Every optional single-valued property is a pointer: the operation tells a given value
// from "not given" for each (an empty title, description, note or block is a change,
// phase 0 is a phase id). The schema requires id ("" is a reference that is not found).
type EditInput struct {
	ID               string   `json:"id" jsonschema:"initiative id or slug"`
	Title            *string  `json:"title,omitempty" jsonschema:"new title"`
	Status           *string  `json:"status,omitempty" jsonschema:"new status (draft|open|in_progress|done|archived)"`
	Description      *string  `json:"description,omitempty" jsonschema:"new description"`
	Notes            *string  `json:"notes,omitempty" jsonschema:"note appended to the notes list"`
	AddPhase         []string `json:"add_phase,omitempty" jsonschema:"title of a new pending phase, once per phase"`
	PhaseID          *int64   `json:"phase_id,omitempty" jsonschema:"phase to update (with phase_status)"`
	PhaseStatus      *string  `json:"phase_status,omitempty" jsonschema:"new status of phase_id (pending|in_progress|done|blocked)"`
	AddSuccessMetric []string `json:"add_success_metric,omitempty" jsonschema:"success metric to add, once per metric"`
	TargetDate       *string  `json:"target_date,omitempty" jsonschema:"new target date (YYYY-MM-DD)"`
	BlockedBy        *string  `json:"blocked_by,omitempty" jsonschema:"what blocks the initiative"`
	BlockedReason    *string  `json:"blocked_reason,omitempty" jsonschema:"why it is blocked (with blocked_by)"`
	Unblock          bool     `json:"unblock,omitempty" jsonschema:"remove blocked_by and blocked_reason"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (enums, patterns, rules), so the
// schema native.New infers equals the adapter's.
func (EditInput) AdjustSchema(s *jsonschema.Schema) {
	shell.Choices(s, "status", delivery.InitiativeStatuses...)
	shell.Choices(s, "phase_status", delivery.PhaseStatuses...)
	shell.Dates(s, "target_date")
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.AnyOf, Properties: []string{"title", "status", "description", "notes", "add_phase", "phase_id", "add_success_metric", "target_date", "blocked_by", "unblock"}}, tool.Constraint{Kind: tool.Together, Properties: []string{"phase_id", "phase_status"}}, tool.Constraint{Kind: tool.Requires, Properties: []string{"blocked_reason", "blocked_by"}}, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"unblock", "blocked_by"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "initiative:edit",
		Description: "Edit an initiative's fields, phases, metrics or block state and commit it",
		Annotations: tool.Annotations{DestructiveHint: true},
	}, runEdit))
}

// runEdit serves initiative:edit natively: the target date's day (the schema checks its
// form and the rules between the properties), then ops.InitiativeEdit in the call's
// journal.
func runEdit(ctx context.Context, env *tool.Env, in EditInput) tool.Output {
	op := ops.InitiativeEditInput{Ref: in.ID, Title: in.Title, Status: in.Status,
		Description: in.Description, Note: in.Notes, AddPhases: in.AddPhase, PhaseStatus: in.PhaseStatus,
		AddSuccessMetrics: in.AddSuccessMetric, TargetDate: in.TargetDate, BlockedBy: in.BlockedBy,
		BlockedReason: in.BlockedReason, Unblock: in.Unblock}
	if in.PhaseID != nil {
		id := int(*in.PhaseID)
		op.PhaseID = &id
	}
	return serveWrite(ctx, env, checkDay("target_date", shell.Deref(in.TargetDate)), func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.InitiativeEditData, ops.Notes, error) {
		return ops.InitiativeEdit(ctx, ws, rt, op)
	})
}
