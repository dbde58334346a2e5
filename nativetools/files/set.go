// Scaffolded by `cmdbridge scaffold config:set` from newConfigSetApp (commands/files/config_set.go).
// The Input struct reproduces the adapter's input schema; write the handler, then delete the
// NOT_IMPLEMENTED test and route the tool native once its parity script passes.

package files

import (
	"context"

	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// SetInput is config:set's input: one field per adapter schema property, in the same order.
type SetInput struct {
	Key   string `json:"key" jsonschema:"dotted path from the root of workspace.yaml"`
	Value string `json:"value" jsonschema:"new value: true/false and numbers are typed; lists get comma-separated items appended"`
}

func init() {
	nativetools.Register(nativetools.New(tool.Spec{
		Name:        "config:set",
		Domain:      "files",
		Description: "Set a workspace.yaml value by dotted key and commit it",
	}, runSet))
}

// runSet serves config:set natively. Until it is written the tool answers NOT_IMPLEMENTED, so its
// parity script fails and its route stays adapter.
func runSet(ctx context.Context, env *tool.Env, in SetInput) tool.Output {
	return tool.Fail(tool.CodeNotImplemented, "config:set: the native handler is not written yet")
}
