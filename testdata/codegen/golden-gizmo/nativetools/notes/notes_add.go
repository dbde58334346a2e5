// Scaffolded by `cmdbridge scaffold notes:add` from `gizmo notes add`, a leaf of NewApp's tree (testdata/codegen/gizmo/gizmo.go).
// The Input struct reproduces the adapter's input schema; write the handler, then delete the
// NOT_IMPLEMENTED test and route the tool native once its parity script passes.

package notes

import (
	"context"

	"github.com/cmdbridge/cmdbridge/testdata/codegen/gizmo/tools"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// AddInput is notes:add's input: one field per adapter schema property, in the same order.
type AddInput struct {
	Output string `json:"output" jsonschema:"the notes file"`
	Text   string `json:"text" jsonschema:"the note"`
	Upper  bool   `json:"upper,omitempty" jsonschema:"write notes in capitals"`
}

func init() {
	if err := tools.Registry.Add(native.New(tool.Spec{
		Name:        "notes:add",
		Description: "append a note to a file",
		Annotations: tool.Annotations{DestructiveHint: true, OpenWorldHint: true},
	}, runAdd)); err != nil {
		panic(err)
	}
}

// runAdd serves notes:add natively. Until it is written the tool answers NOT_IMPLEMENTED, so
// parity reports it in progress (exit 1 unless --allow-in-progress) and its route stays adapter.
func runAdd(ctx context.Context, env *tool.Env, in AddInput) tool.Output {
	return tool.Fail(tool.CodeNotImplemented, "notes:add: the native handler is not written yet")
}
