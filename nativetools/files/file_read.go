// Scaffolded by `cmdbridge scaffold file:read` from newFileReadApp (commands/files/file_read.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.FileRead, minus printing.

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

// ReadInput is file:read's input: one field per adapter schema property, in the same order.
// The line and size properties are pointers: an absent start or end line selects from
// the first or to the last line, an absent max_size is the default. The schema requires
// path ("" reaches the path check), bounds the lines to >= 1 and refuses an encoding that
// is none ("" included), so an empty Encoding is absent: utf8.
type ReadInput struct {
	Path      string `json:"path" jsonschema:"file to read"`
	StartLine *int64 `json:"start_line,omitempty" jsonschema:"first line to print, 1-based (integer >= 1)"`
	EndLine   *int64 `json:"end_line,omitempty" jsonschema:"last line to print, inclusive (integer >= 1)"`
	MaxSize   *int64 `json:"max_size,omitempty" jsonschema:"largest file size accepted, in bytes"`
	Encoding  string `json:"encoding,omitempty" jsonschema:"output encoding (utf8|base64)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (ReadInput) AdjustSchema(s *jsonschema.Schema) {
	shell.Range(s, "start_line", jsonschema.Ptr(1), nil)
	shell.Range(s, "end_line", jsonschema.Ptr(1), nil)
	s.Properties["max_size"].Default = json.RawMessage(`10485760`)
	s.Properties["encoding"].Default = json.RawMessage(`"utf8"`)
	shell.Choices(s, "encoding", "utf8", "base64")
	shell.MinLength(s, 1, "path")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "file:read",
		Domain:       "files",
		Description:  "Print a workspace file, or a range of its lines, byte-exact",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		Paths:        []tool.PathInput{{Property: "path", Access: tool.Read}},
		ParallelSafe: true,
	}, runRead))
}

// runRead serves file:read natively: the environment, then ops.FileRead in the call's
// directory. It needs no workspace (outside one the path is
// confined to the directory), and its content is always JSON-bound, so non-UTF-8 text is
// refused as with --json.
func runRead(ctx context.Context, env *tool.Env, in ReadInput) tool.Output {
	if _, fail := shell.Start(env); fail != nil {
		return *fail
	}
	op := ops.FileReadInput{Path: in.Path, StartLine: intPtr(in.StartLine), EndLine: intPtr(in.EndLine),
		MaxSize: intPtr(in.MaxSize), Encoding: in.Encoding, JSON: true}
	data, notes, err := ops.FileRead(ctx, env.Dir, shell.LookupEnv(env), op)
	return shell.Result(data, notes, err)
}

// intPtr converts a present int64 property to the *int the operations take.
func intPtr(p *int64) *int {
	if p == nil {
		return nil
	}
	n := int(*p)
	return &n
}
