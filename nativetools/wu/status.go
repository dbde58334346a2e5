// Scaffolded by `cmdbridge scaffold wu:status` from newWUStatusApp (commands/wu/wu_status.go).
// The Input struct reproduces the adapter's input schema; write the handler, then delete the
// NOT_IMPLEMENTED test and route the tool native once its parity script passes.

package wu

import (
	"context"

	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// StatusInput is wu:status's input: one field per adapter schema property, in the same order.
type StatusInput struct {
	ID string `json:"id,omitempty" jsonschema:"WU to show (default: inferred from the lane branch) (WU-<n>)"`
}

func init() {
	nativetools.Register(nativetools.New(tool.Spec{
		Name:         "wu:status",
		Domain:       "wu",
		Description:  "Show one WU with its event state, lock, worktree and location",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runStatus))
}

// runStatus serves wu:status natively. Until it is written the tool answers NOT_IMPLEMENTED, so its
// parity script fails and its route stays adapter.
func runStatus(ctx context.Context, env *tool.Env, in StatusInput) tool.Output {
	return tool.Fail(tool.CodeNotImplemented, "wu:status: the native handler is not written yet")
}
