// Scaffolded by `cmdbridge scaffold initiative:add-wu` from newInitiativeAddWUApp (commands/initiative/initiative_add_wu.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.InitiativeAddWU, minus printing.

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

// AddWUInput is initiative:add-wu's input: one field per adapter schema property, in the same order.
// The schema requires initiative and wu ("" is a given reference: NOT_FOUND) and bounds
// phase to >= 1, so an absent phase is 0, none.
type AddWUInput struct {
	Initiative string   `json:"initiative" jsonschema:"initiative id or slug"`
	WU         []string `json:"wu" jsonschema:"WU id (WU-<n>), once per WU"`
	Phase      int64    `json:"phase,omitempty" jsonschema:"phase of the initiative the WUs belong to (integer >= 1)"`
}

// AdjustSchema adds the phase's bound, so the schema native.New infers equals the
// adapter's.
func (AddWUInput) AdjustSchema(s *jsonschema.Schema) {
	shell.Range(s, "phase", jsonschema.Ptr(1), nil)
	shell.WUIDs(s, "wu")
	shell.NonEmpty(s, "wu")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "initiative:add-wu",
		Description: "Link WUs to an initiative (both sides) and commit",
	}, runAddWU))
}

// runAddWU serves initiative:add-wu natively: the two checks the schema cannot state,
// then ops.InitiativeAddWU in the call's journal. The command's --wu is a plain string
// list, so the schema neither requires an item nor gives the items the WU pattern: an
// empty list is no --wu at all (a missing required flag) and a malformed id is refused
// by the command's action (ops.InitiativeAddWUInput.Check), both USAGE before the
// workspace is looked for.
func runAddWU(ctx context.Context, env *tool.Env, in AddWUInput) tool.Output {
	op := ops.InitiativeAddWUInput{Initiative: in.Initiative, WUs: in.WU, Phase: int(in.Phase)}
	return serveWrite(ctx, env, nil, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.InitiativeAddWUData, ops.Notes, error) {
		return ops.InitiativeAddWU(ctx, ws, rt, op)
	})
}
