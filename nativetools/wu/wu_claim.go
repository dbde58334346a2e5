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
	// Lane is required (the schema refuses its absence); an empty one is given, and then
	// mismatches the WU's lane (VALIDATION).
	Lane       string `json:"lane" jsonschema:"lane of the WU (must match its spec)"`
	BranchOnly bool   `json:"branch_only,omitempty" jsonschema:"work in the main checkout instead of a worktree"`
	Force      bool   `json:"force,omitempty" jsonschema:"skip the dependency and WIP checks (never the lock)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry, so the schema native.New
// infers equals the adapter's.
func (ClaimInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "id")
	shell.NonBlank(s, "lane")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:claim",
		Description: "Claim a ready WU: lock its lane, mark it in_progress and create its worktree",
	}, runClaim))
}

// runClaim serves wu:claim natively: ops.WUClaim in the call's journal.
func runClaim(ctx context.Context, env *tool.Env, in ClaimInput) tool.Output {
	op := ops.WUClaimInput{ID: in.ID, Lane: in.Lane, BranchOnly: in.BranchOnly, Force: in.Force}
	return serve(ctx, env, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WUClaimData, ops.Notes, error) {
		return ops.WUClaim(ctx, ws, rt, op)
	})
}
