// Scaffolded by `cmdbridge scaffold file:delete` from newFileDeleteApp (commands/files/file_delete.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.FileDelete, minus printing.

package files

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// DeleteInput is file:delete's input: one field per adapter schema property, in the same order.
// The schema requires path; "" is given: the call's directory, refused as the root or a
// directory.
type DeleteInput struct {
	Path      string `json:"path" jsonschema:"file or directory to delete"`
	Recursive bool   `json:"recursive,omitempty" jsonschema:"delete a directory and everything in it"`
	Force     bool   `json:"force,omitempty" jsonschema:"a missing path is not an error"`
}

// AdjustSchema refuses an empty path (the workspace root), as the adapter's schema does.
func (DeleteInput) AdjustSchema(s *jsonschema.Schema) {
	shell.MinLength(s, 1, "path")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "file:delete",
		Domain:      "files",
		Description: "Delete a workspace file or, with recursive=true, a directory",
		Annotations: tool.Annotations{DestructiveHint: true, IdempotentHint: true},
		Paths:       []tool.PathInput{{Property: "path", Access: tool.Write}},
	}, runDelete))
}

// runDelete serves file:delete natively: the environment, then ops.FileDelete in the
// call's directory. It needs no workspace (outside one the path is confined to the
// directory) and commits nothing.
func runDelete(ctx context.Context, env *tool.Env, in DeleteInput) tool.Output {
	if _, fail := shell.Start(env); fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	op := ops.FileDeleteInput{Path: in.Path, Recursive: in.Recursive, Force: in.Force}
	data, notes, err := ops.FileDelete(ctx, env.Dir, shell.LookupEnv(env), op)
	return shell.Result(data, notes, err)
}
