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
// The schema refuses a wu or lifecycle that is not of its form ("" included), so an empty
// one is an absent one: the session's WU, every lifecycle. An empty type is no type
// filter, as `--type=` is.
type ExportInput struct {
	WU        string `json:"wu,omitempty" jsonschema:"only nodes of this work unit (default: the current session's) (WU-<n>)"`
	Type      string `json:"type,omitempty" jsonschema:"only nodes of this type"`
	Lifecycle string `json:"lifecycle,omitempty" jsonschema:"only nodes of this lifecycle (ephemeral|session|wu|project)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (a pattern, choices), so the
// schema native.New infers equals the adapter's.
func (ExportInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "wu")
	shell.Choices(s, "lifecycle", delivery.Lifecycles...)
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

// runExport serves mem:export natively: the workspace (through the host's warm index),
// then ops.MemExport.
func runExport(ctx context.Context, env *tool.Env, in ExportInput) tool.Output {
	return shell.Serve(ctx, env, shell.Op[ops.MemExportData]{
		Run: func(ctx context.Context, ws *delivery.Workspace, _ *delivery.Runtime) (ops.MemExportData, ops.Notes, error) {
			return ops.MemExport(ctx, ws, ops.MemExportInput{WU: in.WU, Type: in.Type, Lifecycle: in.Lifecycle})
		}})
}
