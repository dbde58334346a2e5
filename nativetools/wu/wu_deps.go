// Scaffolded by `cmdbridge scaffold wu:deps` from newWUDepsApp (commands/wu/wu_deps.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WUDeps, minus printing.

package wu

import (
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// DepsInput is wu:deps's input: one field per adapter schema property, in the same order.
// The schema refuses an empty id, so "" is "not given" (the id is then inferred);
// Direction and Depth are pointers for their defaults (both, 3) when absent.
type DepsInput struct {
	ID        string  `json:"id,omitempty" jsonschema:"the WU (WU-<n>)"`
	Direction *string `json:"direction,omitempty" jsonschema:"which side of the tree to show (up|down|both)"`
	Depth     *int64  `json:"depth,omitempty" jsonschema:"levels to expand (integer >= 1)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, patterns, enums,
// bounds), so the schema native.New infers equals the adapter's.
func (DepsInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "id")
	s.Properties["direction"].Default = json.RawMessage(`"both"`)
	shell.Choices(s, "direction", ops.WUDepsDirections...)
	s.Properties["depth"].Default = json.RawMessage(`3`)
	shell.Range(s, "depth", jsonschema.Ptr(1), nil)
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "wu:deps",
		Description:  "Show the dependency tree of a WU (upstream blocked_by, downstream blocks)",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runDeps))
}

// runDeps serves wu:deps natively: ops.WUDeps on the workspace read through the warm
// index, with the command's defaults. An absent id is inferred from the lane branch
// checked out in the call's directory.
func runDeps(ctx context.Context, env *tool.Env, in DepsInput) tool.Output {
	op := ops.WUDepsInput{ID: in.ID, Dir: env.Dir, Direction: shell.Or(in.Direction, "both"), Depth: int(shell.Or(in.Depth, 3))}
	return serveRead(ctx, env, func(ctx context.Context, ws *delivery.Workspace, _ *delivery.Runtime) (ops.WUDepsData, ops.Notes, error) {
		return ops.WUDeps(ctx, ws, op)
	})
}
