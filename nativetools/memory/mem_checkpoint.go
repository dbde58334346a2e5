// Scaffolded by `cmdbridge scaffold mem:checkpoint` from newMemCheckpointApp (commands/memory/mem_checkpoint.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MemCheckpoint, minus printing.

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

// CheckpointInput is mem:checkpoint's input: one field per adapter schema property, in the same order.
// The schema requires note and refuses a wu that is not WU-<n> ("" included), so an empty
// wu is an absent one: the session's.
type CheckpointInput struct {
	Note      string `json:"note" jsonschema:"what was achieved (non-empty)"`
	WU        string `json:"wu,omitempty" jsonschema:"work unit (default: the current session's) (WU-<n>)"`
	Session   string `json:"session,omitempty" jsonschema:"session uuid (default: the current session's)"`
	Progress  string `json:"progress,omitempty" jsonschema:"progress summary"`
	NextSteps string `json:"next_steps,omitempty" jsonschema:"what comes next"`
}

// AdjustSchema gives wu the WU-<n> pattern of the command's WU flag, so the schema equals
// the adapter's.
func (CheckpointInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "wu")
	shell.NonBlank(s, "note")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "mem:checkpoint",
		Domain:      "memory",
		Description: "Record a progress checkpoint as a memory node (and a WU checkpoint event)",
	}, runCheckpoint))
}

// runCheckpoint serves mem:checkpoint natively: the note check (a blank note is
// VALIDATION, before the workspace, as in the command), then the workspace and
// ops.MemCheckpoint.
func runCheckpoint(ctx context.Context, env *tool.Env, in CheckpointInput) tool.Output {
	op := ops.MemCheckpointInput{Note: in.Note, WU: in.WU, Session: in.Session,
		Progress: in.Progress, NextSteps: in.NextSteps, Caller: env.Caller}
	return shell.Serve(ctx, env, shell.Op[ops.MemCheckpointData]{Argv: op.Check(), Append: true,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.MemCheckpointData, ops.Notes, error) {
			return ops.MemCheckpoint(ctx, ws, rt, op)
		}})
}
