// Scaffolded by `cmdbridge scaffold initiative:status` from newInitiativeStatusApp (commands/initiative/initiative_status.go).
// The Input struct reproduces the adapter's input schema; write the handler, then delete the
// NOT_IMPLEMENTED test and route the tool native once its parity script passes.

package initiative

import (
	"context"

	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// StatusInput is initiative:status's input: one field per adapter schema property, in the same order.
type StatusInput struct {
	ID string `json:"id,omitempty" jsonschema:"initiative id or slug (or the positional ID)"`
}

func init() {
	nativetools.Register(nativetools.New(tool.Spec{
		Name:         "initiative:status",
		Domain:       "initiative",
		Description:  "Show an initiative with its progress, phases and WUs",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runStatus))
}

// runStatus serves initiative:status natively. Until it is written the tool answers NOT_IMPLEMENTED, so its
// parity script fails and its route stays adapter.
func runStatus(ctx context.Context, env *tool.Env, in StatusInput) tool.Output {
	return tool.Fail(tool.CodeNotImplemented, "initiative:status: the native handler is not written yet")
}
