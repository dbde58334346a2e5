// Scaffolded by `cmdbridge scaffold wu:block` from newWUBlockApp (commands/wu/wu_block.go).
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

// BlockInput is wu:block's input: one field per adapter schema property, in the same order.
type BlockInput struct {
	ID             string `json:"id" jsonschema:"WU to block (WU-<n>)"`
	Reason         string `json:"reason" jsonschema:"why the WU is blocked"`
	RemoveWorktree bool   `json:"remove_worktree,omitempty" jsonschema:"remove the WU's worktree (its branch is kept)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry, so the schema native.New
// infers equals the adapter's.
func (BlockInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "id")
	shell.NonBlank(s, "reason")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:block",
		Description: "Mark an in-progress WU as blocked",
		Annotations: tool.Annotations{DestructiveHint: true},
		Effects:     []tool.Effect{tool.WritesWhen(tool.IsUnset("remove_worktree"))},
	}, runBlock))
}

// runBlock serves wu:block natively: ops.WUBlock, after its Check. The Check stays an
// argv check (USAGE before the workspace): the command's --reason refuses a blank value
// (only spaces too), and the adapter's schema carries no keyword for it.
func runBlock(ctx context.Context, env *tool.Env, in BlockInput) tool.Output {
	op := ops.WUBlockInput{ID: in.ID, Reason: in.Reason, RemoveWorktree: in.RemoveWorktree}
	return serveChecked(ctx, env, op.Check(), func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WUBlockData, ops.Notes, error) {
		return ops.WUBlock(ctx, ws, rt, op)
	})
}
