// Scaffolded by `cmdbridge scaffold file:read` from newFileReadApp (commands/files/file_read.go).
// The Input struct reproduces the adapter's input schema; write the handler, then delete the
// NOT_IMPLEMENTED test and route the tool native once its parity script passes.

package files

import (
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// ReadInput is file:read's input: one field per adapter schema property, in the same order.
type ReadInput struct {
	Path      string `json:"path" jsonschema:"file to read"`
	StartLine int64  `json:"start_line,omitempty" jsonschema:"first line to print, 1-based (integer >= 1)"`
	EndLine   int64  `json:"end_line,omitempty" jsonschema:"last line to print, inclusive (integer >= 1)"`
	MaxSize   int64  `json:"max_size,omitempty" jsonschema:"largest file size accepted, in bytes"`
	Encoding  string `json:"encoding,omitempty" jsonschema:"output encoding (utf8|base64)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema nativetools.New infers equals the adapter's.
func (ReadInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["max_size"].Default = json.RawMessage(`10485760`)
	s.Properties["encoding"].Default = json.RawMessage(`"utf8"`)
	s.Properties["encoding"].Enum = []any{"utf8", "base64"}
}

func init() {
	nativetools.Register(nativetools.New(tool.Spec{
		Name:         "file:read",
		Domain:       "files",
		Description:  "Print a workspace file, or a range of its lines, byte-exact",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		Paths:        []tool.PathInput{{Property: "path", Access: tool.Read}},
		ParallelSafe: true,
	}, runRead))
}

// runRead serves file:read natively. Until it is written the tool answers NOT_IMPLEMENTED, so its
// parity script fails and its route stays adapter.
func runRead(ctx context.Context, env *tool.Env, in ReadInput) tool.Output {
	return tool.Fail(tool.CodeNotImplemented, "file:read: the native handler is not written yet")
}
