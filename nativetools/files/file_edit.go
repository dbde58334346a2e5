// Scaffolded by `cmdbridge scaffold file:edit` from newFileEditApp (commands/files/file_edit.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.FileEdit, minus printing.

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

// EditInput is file:edit's input: one field per adapter schema property, in the same order.
type EditInput struct {
	Path       string `json:"path" jsonschema:"file to edit"`
	OldString  string `json:"old_string" jsonschema:"exact bytes to replace (non-empty)"`
	NewString  string `json:"new_string" jsonschema:"replacement bytes (may be empty)"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence instead of exactly one"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (EditInput) AdjustSchema(s *jsonschema.Schema) {
	shell.MinLength(s, 1, "path", "old_string")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "file:edit",
		Domain:      "files",
		Description: "Replace an exact byte string in a workspace file",
		Annotations: tool.Annotations{DestructiveHint: true},
		Paths:       []tool.PathInput{{Property: "path", Access: tool.Write}},
	}, runEdit))
}

// runEdit serves file:edit natively: the environment, then ops.FileEdit in the call's
// directory. It needs no workspace (outside one the path is confined to the directory)
// and never commits.
func runEdit(ctx context.Context, env *tool.Env, in EditInput) tool.Output {
	if _, fail := shell.Start(env); fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	op := ops.FileEditInput{Path: in.Path, Old: in.OldString, New: in.NewString, ReplaceAll: in.ReplaceAll}
	data, notes, err := ops.FileEdit(ctx, env.Dir, shell.LookupEnv(env), op)
	return shell.Result(data, notes, err)
}
