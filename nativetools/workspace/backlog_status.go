// Scaffolded by `cmdbridge scaffold backlog:status` from newBacklogStatusApp (commands/workspace/backlog_status.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.BacklogStatus, minus printing.

package workspace

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
	"github.com/google/jsonschema-go/jsonschema"
)

// StatusInput is backlog:status's input: one field per adapter schema property, in the same order.
type StatusInput struct {
	// Lane is a pointer because "" is not "absent": --lane= keeps only the lane named "".
	Lane        *string  `json:"lane,omitempty" jsonschema:"only this lane"`
	Status      []string `json:"status,omitempty" jsonschema:"list only WUs with this status (repeatable; ready|in_progress|blocked|done|closed)"`
	IncludeDone bool     `json:"include_done,omitempty" jsonschema:"also list done and closed WUs (they are always counted)"`
}

// AdjustSchema gives status the board's statuses, as the command's convention.Enums flag
// does in the adapter's schema.
func (StatusInput) AdjustSchema(s *jsonschema.Schema) {
	shell.Choices(s, "status", ops.BoardStatuses...)
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "backlog:status",
		Domain:       "workspace",
		Description:  "Show the board of WUs by lane and status",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runStatus))
}

// runStatus serves backlog:status natively: ops.BacklogStatus on the workspace read
// through the warm index, the directories and lanes sections checked. The schema holds
// the statuses the command accepts.
func runStatus(ctx context.Context, env *tool.Env, in StatusInput) tool.Output {
	return shell.Serve(ctx, env, shell.Op[delivery.Board]{Keys: ops.BacklogKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, _ *delivery.Runtime) (delivery.Board, ops.Notes, error) {
			return ops.BacklogStatus(ctx, ws, ops.BacklogStatusInput{Lane: in.Lane, Statuses: in.Status, IncludeDone: in.IncludeDone})
		}})
}
