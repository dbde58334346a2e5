// Scaffolded by `cmdbridge scaffold wu:claim` from newWUClaimApp (commands/wu/wu_claim.go).
// The Input struct reproduces the adapter's input schema; write the handler, then delete the
// NOT_IMPLEMENTED test and route the tool native once its parity script passes.

package wu

import (
	"context"

	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// ClaimInput is wu:claim's input: one field per adapter schema property, in the same order.
type ClaimInput struct {
	ID         string `json:"id" jsonschema:"WU to claim (WU-<n>)"`
	Lane       string `json:"lane" jsonschema:"lane of the WU (must match its spec)"`
	BranchOnly bool   `json:"branch_only,omitempty" jsonschema:"work in the main checkout instead of a worktree"`
	Force      bool   `json:"force,omitempty" jsonschema:"skip the dependency and WIP checks (never the lock)"`
}

func init() {
	nativetools.Register(nativetools.New(tool.Spec{
		Name:        "wu:claim",
		Domain:      "wu",
		Description: "Claim a ready WU: lock its lane, mark it in_progress and create its worktree",
	}, runClaim))
}

// runClaim serves wu:claim natively. Until it is written the tool answers NOT_IMPLEMENTED, so its
// parity script fails and its route stays adapter.
func runClaim(ctx context.Context, env *tool.Env, in ClaimInput) tool.Output {
	return tool.Fail(tool.CodeNotImplemented, "wu:claim: the native handler is not written yet")
}
