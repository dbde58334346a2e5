// Scaffolded by `cmdbridge scaffold initiative:remove-wu` from newInitiativeRemoveWUApp (commands/initiative/initiative_remove_wu.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.InitiativeRemoveWU, minus printing.

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

// RemoveWUInput is initiative:remove-wu's input: one field per adapter schema property, in the same order.
// The schema requires both and gives wu the WU pattern; an empty initiative is a given
// reference (NOT_FOUND).
type RemoveWUInput struct {
	Initiative string `json:"initiative" jsonschema:"initiative id or slug"`
	WU         string `json:"wu" jsonschema:"WU to unlink (WU-<n>)"`
}

// AdjustSchema gives wu the WU pattern, so the schema native.New infers equals the
// adapter's.
func (RemoveWUInput) AdjustSchema(s *jsonschema.Schema) { shell.WUIDs(s, "wu") }

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "initiative:remove-wu",
		Description: "Unlink a WU from an initiative (both sides) and commit",
		Annotations: tool.Annotations{DestructiveHint: true},
	}, runRemoveWU))
}

// runRemoveWU serves initiative:remove-wu natively: ops.InitiativeRemoveWU in the call's
// journal.
func runRemoveWU(ctx context.Context, env *tool.Env, in RemoveWUInput) tool.Output {
	op := ops.InitiativeRemoveWUInput{Initiative: in.Initiative, WU: in.WU}
	return serveWrite(ctx, env, nil, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.InitiativeRemoveWUData, ops.Notes, error) {
		return ops.InitiativeRemoveWU(ctx, ws, rt, op)
	})
}
