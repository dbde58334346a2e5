// Scaffolded by `cmdbridge scaffold wu:cleanup` from newWUCleanupApp (commands/wu/wu_cleanup.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WUCleanup, minus the printing.

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

// CleanupInput is wu:cleanup's input: one field per adapter schema property, in the same order.
type CleanupInput struct {
	ID string `json:"id" jsonschema:"the done WU to clean up (WU-<n>)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (CleanupInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "id")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:cleanup",
		Description: "Remove the worktree, lane branch and lock left behind by a done WU",
		Annotations: tool.Annotations{DestructiveHint: true, IdempotentHint: true},
	}, runCleanup))
}

// runCleanup serves wu:cleanup natively: ops.WUCleanup in the call's journal (it removes a
// worktree, a branch and a lock, and commits nothing).
func runCleanup(ctx context.Context, env *tool.Env, in CleanupInput) tool.Output {
	return serve(ctx, env, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WUCleanupData, ops.Notes, error) {
		return ops.WUCleanup(ctx, ws, rt, ops.WUCleanupInput{ID: in.ID})
	})
}
