// Scaffolded by `cmdbridge scaffold initiative:remove-wu` from newInitiativeRemoveWUApp (commands/initiative/initiative_remove_wu.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.InitiativeRemoveWU, minus printing.

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

// RemoveWUInput is initiative:remove-wu's input: one field per adapter schema property, in the same order.
// Pointers mark what the command tells apart from "not given": an empty initiative is a
// given reference (NOT_FOUND, not a missing flag), an empty wu a malformed value.
type RemoveWUInput struct {
	Initiative *string `json:"initiative" jsonschema:"initiative id or slug"`
	WU         *string `json:"wu" jsonschema:"WU to unlink (WU-<n>)"`
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "initiative:remove-wu",
		Description: "Unlink a WU from an initiative (both sides) and commit",
		Annotations: tool.Annotations{DestructiveHint: true},
	}, runRemoveWU))
}

// runRemoveWU serves initiative:remove-wu natively: the WU id's form, the required flags,
// then ops.InitiativeRemoveWU in the call's journal.
func runRemoveWU(ctx context.Context, env *tool.Env, in RemoveWUInput) tool.Output {
	argv := shell.FirstErr(
		checkWU("wu", in.WU),
		shell.RequireFlag("initiative", in.Initiative != nil),
		shell.RequireFlag("wu", in.WU != nil))
	op := ops.InitiativeRemoveWUInput{Initiative: shell.Deref(in.Initiative), WU: shell.Deref(in.WU)}
	return serveWrite(ctx, env, argv, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.InitiativeRemoveWUData, ops.Notes, error) {
		return ops.InitiativeRemoveWU(ctx, ws, rt, op)
	})
}
