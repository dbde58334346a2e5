// Scaffolded by `cmdbridge scaffold mem:export` from newMemExportApp (commands/memory/mem_export.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MemExport, minus printing.

package memory

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// ExportInput is mem:export's input: one field per adapter schema property, in the same order.
// WU and Lifecycle are pointers: absent means the session's WU and every lifecycle, while
// "" is neither a WU id nor a lifecycle (`--wu=` and `--lifecycle=` are USAGE). An empty
// type is no type filter, as `--type=` is.
type ExportInput struct {
	WU        *string `json:"wu,omitempty" jsonschema:"only nodes of this work unit (default: the current session's) (WU-<n>)"`
	Type      string  `json:"type,omitempty" jsonschema:"only nodes of this type"`
	Lifecycle *string `json:"lifecycle,omitempty" jsonschema:"only nodes of this lifecycle (ephemeral|session|wu|project)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (ExportInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["lifecycle"].Enum = []any{"ephemeral", "session", "wu", "project"}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "mem:export",
		Domain:       "memory",
		Description:  "Export visible memory nodes as markdown",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runExport))
}

// runExport serves mem:export natively: the command's argv checks (wu, then lifecycle),
// then the workspace (through the host's warm index) and ops.MemExport.
func runExport(ctx context.Context, env *tool.Env, in ExportInput) tool.Output {
	if _, fail := shell.Start(env); fail != nil {
		return *fail
	}
	if err := firstErr(checkWU("wu", in.WU), checkEnum("lifecycle", in.Lifecycle, delivery.Lifecycles)); err != nil {
		return result(nil, ops.Notes{}, err)
	}
	ws, err := shell.ReadWorkspace(ctx, env)
	if err != nil {
		return result(nil, ops.Notes{}, err)
	}
	data, notes, err := ops.MemExport(ctx, ws, ops.MemExportInput{WU: value(in.WU), Type: in.Type, Lifecycle: value(in.Lifecycle)})
	return result(data, notes, err)
}
