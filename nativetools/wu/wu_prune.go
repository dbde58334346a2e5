// Scaffolded by `cmdbridge scaffold wu:prune` from newWUPruneApp (commands/wu/wu_prune.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WUPrune, minus printing.

package wu

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// PruneInput is wu:prune's input: one field per adapter schema property, in the same order.
type PruneInput struct {
	Execute bool `json:"execute,omitempty" jsonschema:"act (the default is a read-only dry run)"`
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:prune",
		Description: "Classify the WU worktrees and, with execute=true, remove the stale ones of done WUs",
		Annotations: tool.Annotations{DestructiveHint: true},
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("execute"))},
	}, runPrune))
}

// runPrune serves wu:prune natively: a dry run reads (through the warm index where the
// host keeps one); execute is a writer, in the call's journal.
func runPrune(ctx context.Context, env *tool.Env, in PruneInput) tool.Output {
	return shell.Serve(ctx, env, shell.Op[ops.WUPruneData]{Write: in.Execute, Keys: ops.WUKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WUPruneData, ops.Notes, error) {
			return ops.WUPrune(ctx, ws, rt, in.Execute)
		}})
}
