// Scaffolded by `cmdbridge scaffold wu:claim` from newWUClaimApp (commands/wu/wu_claim.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around delivery/ops, minus the printing.

package wu

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

// ClaimInput is wu:claim's input: one field per adapter schema property, in the same order.
type ClaimInput struct {
	ID string `json:"id" jsonschema:"WU to claim (WU-<n>)"`
	// Lane is a pointer: an empty --lane is given (it then mismatches the WU's lane,
	// VALIDATION), an absent one is a missing required flag (USAGE).
	Lane       *string `json:"lane" jsonschema:"lane of the WU (must match its spec)"`
	BranchOnly bool    `json:"branch_only,omitempty" jsonschema:"work in the main checkout instead of a worktree"`
	Force      bool    `json:"force,omitempty" jsonschema:"skip the dependency and WIP checks (never the lock)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry, so the schema native.New
// infers equals the adapter's.
func (ClaimInput) AdjustSchema(s *jsonschema.Schema) { shell.WUIDs(s, "id") }

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:claim",
		Description: "Claim a ready WU: lock its lane, mark it in_progress and create its worktree",
	}, runClaim))
}

// runClaim serves wu:claim natively: the argv checks, then ops.WUClaim.
func runClaim(ctx context.Context, env *tool.Env, in ClaimInput) tool.Output {
	var u usage
	requiredWU(&u, "id", in.ID)
	u.required("lane", in.Lane != nil)
	op := ops.WUClaimInput{ID: in.ID, Lane: deref(in.Lane), BranchOnly: in.BranchOnly, Force: in.Force}
	return serve(ctx, env, u.then(nil), func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WUClaimData, ops.Notes, error) {
		return ops.WUClaim(ctx, ws, rt, op)
	})
}
