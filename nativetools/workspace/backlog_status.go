// Scaffolded by `cmdbridge scaffold backlog:status` from newBacklogStatusApp (commands/workspace/backlog_status.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.BacklogStatus, minus printing.

package workspace

import (
	"context"
	"slices"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// StatusInput is backlog:status's input: one field per adapter schema property, in the same order.
type StatusInput struct {
	// Lane is a pointer because "" is not "absent": --lane= keeps only the lane named "".
	Lane        *string  `json:"lane,omitempty" jsonschema:"only this lane"`
	Status      []string `json:"status,omitempty" jsonschema:"list only WUs with this status (repeatable; ready|in_progress|blocked|done|closed)"`
	IncludeDone bool     `json:"include_done,omitempty" jsonschema:"also list done and closed WUs (they are always counted)"`
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

// runStatus serves backlog:status natively: the environment, each --status value (USAGE,
// left to right, as the argv phase checks them), the workspace with the directories and
// lanes sections checked, then ops.BacklogStatus.
func runStatus(ctx context.Context, env *tool.Env, in StatusInput) tool.Output {
	if _, fail := shell.Start(env); fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	for _, s := range in.Status {
		if !slices.Contains(ops.BoardStatuses, s) {
			err := delivery.Errorf(tool.CodeUsage, "invalid value %q for --status: expected one of %s",
				s, strings.Join(ops.BoardStatuses, ", "))
			return shell.Result(nil, ops.Notes{}, err)
		}
	}
	ws, err := shell.ReadWorkspace(ctx, env, ops.BacklogKeys...)
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	data, notes, err := ops.BacklogStatus(ctx, ws, ops.BacklogStatusInput{Lane: in.Lane, Statuses: in.Status, IncludeDone: in.IncludeDone})
	return shell.Result(data, notes, err)
}
