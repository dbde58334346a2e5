// Scaffolded by `cmdbridge scaffold initiative:add-wu` from newInitiativeAddWUApp (commands/initiative/initiative_add_wu.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.InitiativeAddWU, minus printing.

package initiative

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// AddWUInput is initiative:add-wu's input: one field per adapter schema property, in the same order.
// Pointers mark what the command tells apart from "not given": an empty initiative is a
// given reference (NOT_FOUND, not a missing flag), phase 0 a malformed value (USAGE).
type AddWUInput struct {
	Initiative *string  `json:"initiative" jsonschema:"initiative id or slug"`
	WU         []string `json:"wu" jsonschema:"WU id (WU-<n>), once per WU"`
	Phase      *int64   `json:"phase,omitempty" jsonschema:"phase of the initiative the WUs belong to (integer >= 1)"`
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "initiative:add-wu",
		Description: "Link WUs to an initiative (both sides) and commit",
	}, runAddWU))
}

// runAddWU serves initiative:add-wu natively: the phase bound, the required flags, the
// WU ids (ops.InitiativeAddWUInput.Check), then ops.InitiativeAddWU in the call's journal.
func runAddWU(ctx context.Context, env *tool.Env, in AddWUInput) tool.Output {
	op := ops.InitiativeAddWUInput{Initiative: shell.Deref(in.Initiative), WUs: in.WU, Phase: int(shell.Deref(in.Phase))}
	argv := shell.FirstErr(
		checkMin("phase", in.Phase, 1),
		shell.RequireFlag("initiative", in.Initiative != nil),
		shell.RequireFlag("wu", len(in.WU) > 0),
		op.Check())
	return serveWrite(ctx, env, argv, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.InitiativeAddWUData, ops.Notes, error) {
		return ops.InitiativeAddWU(ctx, ws, rt, op)
	})
}
