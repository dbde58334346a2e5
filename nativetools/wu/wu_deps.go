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
type DepsInput struct {
	// ID is a pointer because "" is not "absent": the command rejects an empty --id.
	ID        *string `json:"id,omitempty" jsonschema:"the WU (WU-<n>)"`
	Direction *string `json:"direction,omitempty" jsonschema:"which side of the tree to show (up|down|both)"`
	// Depth is a pointer because 0 is not "absent": the default is 3, and 0 is USAGE.
	Depth *int64 `json:"depth,omitempty" jsonschema:"levels to expand (integer >= 1)"`
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

// runDeps serves wu:deps natively: the argv checks (a malformed id, an unknown direction,
// a depth below 1: USAGE), then ops.WUDeps on the workspace read through the warm index. An
// absent id is inferred from the lane branch checked out in the call's directory.
func runDeps(ctx context.Context, env *tool.Env, in DepsInput) tool.Output {
	var u usage
	u.wuID("id", in.ID)
	u.enum("direction", in.Direction, ops.WUDepsDirections)
	depth := int64(3)
	if in.Depth != nil {
		depth = *in.Depth
		if depth < 1 {
			u.fail("invalid value \"%d\" for --depth: expected integer >= 1", depth)
		}
	}
	direction := "both"
	if in.Direction != nil {
		direction = *in.Direction
	}
	return serveRead(ctx, env, u.then(nil), func(ctx context.Context, ws *delivery.Workspace, _ *delivery.Runtime) (ops.WUDepsData, ops.Notes, error) {
		return ops.WUDeps(ctx, ws, ops.WUDepsInput{ID: deref(in.ID), Dir: env.Dir, Direction: direction, Depth: int(depth)})
	})
}
