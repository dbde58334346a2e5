// Scaffolded by `cmdbridge scaffold config:get` from newConfigGetApp (commands/files/config_get.go).
// The Input struct reproduces the adapter's input schema; write the handler, then delete the
// NOT_IMPLEMENTED test and route the tool native once its parity script passes.

package files

import (
	"context"

	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// GetInput is config:get's input: one field per adapter schema property, in the same order.
type GetInput struct {
	Key string `json:"key" jsonschema:"dotted path from the root of workspace.yaml, e.g. software_delivery.git.push"`
}

func init() {
	nativetools.Register(nativetools.New(tool.Spec{
		Name:         "config:get",
		Domain:       "files",
		Description:  "Print a workspace.yaml value by dotted key, as the file has it",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runGet))
}

// runGet serves config:get natively. Until it is written the tool answers NOT_IMPLEMENTED, so its
// parity script fails and its route stays adapter.
func runGet(ctx context.Context, env *tool.Env, in GetInput) tool.Output {
	return tool.Fail(tool.CodeNotImplemented, "config:get: the native handler is not written yet")
}
