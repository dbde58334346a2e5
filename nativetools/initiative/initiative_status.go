// Scaffolded by `cmdbridge scaffold initiative:status` from newInitiativeStatusApp (commands/initiative/initiative_status.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.InitiativeStatus, minus printing.

package initiative

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// StatusInput is initiative:status's input: one field per adapter schema property, in the same order.
// The command takes the reference as --id or as the positional ID; the adapter schema has
// the one property id for both, so an absent and an empty id are the same missing ID.
type StatusInput struct {
	ID string `json:"id,omitempty" jsonschema:"initiative id or slug"`
}

// AdjustSchema makes id required, as the command requires --id or the positional ID.
func (StatusInput) AdjustSchema(s *jsonschema.Schema) {
	shell.MinLength(s, 1, "id")
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.Required, Properties: []string{"id"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "initiative:status",
		Description:  "Show an initiative with its progress, phases and WUs",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runStatus))
}

// runStatus serves initiative:status natively: the reference check, then the workspace
// (with the initiative configuration sections checked) and ops.InitiativeStatus. The
// schema requires id but allows "", which the command reads as no ID at all (USAGE), so
// the handler keeps that check (ops.InitiativeStatusInput.Check).
func runStatus(ctx context.Context, env *tool.Env, in StatusInput) tool.Output {
	// No runtime is needed, but the command checks its environment first (a bad
	// DELIVERY_NOW is USAGE before anything else), so the native shell does too.
	if _, fail := shell.Start(env); fail != nil {
		return *fail
	}
	op := ops.InitiativeStatusInput{Ref: in.ID}
	if err := op.Check(); err != nil {
		return result(nil, ops.Notes{}, err)
	}
	ws, err := shell.ReadWorkspace(ctx, env, ops.InitiativeKeys...)
	if err != nil {
		return result(nil, ops.Notes{}, err)
	}
	data, notes, err := ops.InitiativeStatus(ctx, ws, op)
	return result(data, notes, err)
}

// result is the Output of an operation: its data on success, its coded error otherwise,
// and its warnings in metadata either way (a warning met before a failure is still part
// of the call's output), listed as the adapter lists the envelope's warnings.
func result(data any, notes ops.Notes, err error) tool.Output {
	out := tool.OK(data)
	if err != nil {
		out = shell.Fail(err)
	}
	warnings := notes.Warnings
	if warnings == nil {
		warnings = []string{}
	}
	return out.WithMeta("warnings", warnings)
}
