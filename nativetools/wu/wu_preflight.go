// Scaffolded by `cmdbridge scaffold wu:preflight` from newWUPreflightApp (commands/wu/wu_preflight.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WUPreflight, minus the printing.

package wu

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

// PreflightInput is wu:preflight's input: one field per adapter schema property, in the same order.
// The schema requires a well-formed id; an empty worktree is the command's "not given",
// so neither needs a pointer.
type PreflightInput struct {
	ID       string `json:"id" jsonschema:"WU to check (WU-<n>)"`
	Worktree string `json:"worktree,omitempty" jsonschema:"base directory (default: the WU's worktree if it exists, otherwise the root)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry, so the schema native.New
// infers equals the adapter's.
func (PreflightInput) AdjustSchema(s *jsonschema.Schema) { shell.WUIDs(s, "id") }

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "wu:preflight",
		Description:  "Check that a WU's code and test paths exist before its gates run",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		Paths:        []tool.PathInput{{Property: "worktree", Access: tool.Read}},
		ParallelSafe: true,
	}, runPreflight))
}

// runPreflight serves wu:preflight natively: the workspace (through the host's warm
// index) and ops.WUPreflight, a relative worktree taken from the call's
// directory. A failed check is CHECK_FAILED with its report as data, as the command's
// failure envelope carries it.
func runPreflight(ctx context.Context, env *tool.Env, in PreflightInput) tool.Output {
	return shell.Serve(ctx, env, shell.Op[ops.WUPreflightData]{Keys: ops.WUKeys, Reports: tool.CodeCheckFailed,
		Run: func(ctx context.Context, ws *delivery.Workspace, _ *delivery.Runtime) (ops.WUPreflightData, ops.Notes, error) {
			return ops.WUPreflight(ctx, ws, ops.WUPreflightInput{ID: in.ID, Worktree: in.Worktree, Dir: env.Dir})
		}})
}
