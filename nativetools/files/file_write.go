// Scaffolded by `cmdbridge scaffold file:write` from newFileWriteApp (commands/files/file_write.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.FileWrite, minus printing.

package files

import (
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// WriteInput is file:write's input: one field per adapter schema property, in the same order.
// The schema requires path and content ("" is given: an empty path reaches the path
// checks, empty content writes an empty file) and refuses an encoding that is none (""
// included), so an empty Encoding is absent: utf8.
type WriteInput struct {
	Path         string `json:"path" jsonschema:"file to write"`
	Content      string `json:"content" jsonschema:"the bytes to write (may be empty)"`
	Encoding     string `json:"encoding,omitempty" jsonschema:"encoding of content (utf8|base64)"`
	NoCreateDirs bool   `json:"no_create_dirs,omitempty" jsonschema:"fail instead of creating missing parent directories"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (WriteInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["encoding"].Default = json.RawMessage(`"utf8"`)
	shell.Choices(s, "encoding", "utf8", "base64")
	shell.MinLength(s, 1, "path")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "file:write",
		Domain:      "files",
		Description: "Write exactly the given bytes to a workspace file, atomically",
		Annotations: tool.Annotations{DestructiveHint: true, IdempotentHint: true},
		Paths:       []tool.PathInput{{Property: "path", Access: tool.Write}},
	}, runWrite))
}

// runWrite serves file:write natively: the environment, then ops.FileWrite in the call's
// directory. It
// needs no workspace (outside one the path is confined to the directory) and commits
// nothing.
func runWrite(ctx context.Context, env *tool.Env, in WriteInput) tool.Output {
	if _, fail := shell.Start(env); fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	op := ops.FileWriteInput{Path: in.Path, Content: in.Content, Encoding: in.Encoding, NoCreateDirs: in.NoCreateDirs}
	data, notes, err := ops.FileWrite(ctx, env.Dir, shell.LookupEnv(env), op)
	return shell.Result(data, notes, err)
}
