// Scaffolded by `cmdbridge scaffold wu:recover` from newWURecoverApp (commands/wu/wu_recover.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WURecover, minus printing.

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

// RecoverInput is wu:recover's input: one field per adapter schema property, in the same order.
type RecoverInput struct {
	ID     string `json:"id" jsonschema:"WU to diagnose (WU-<n>)"`
	Action string `json:"action,omitempty" jsonschema:"fix the WU instead of only reporting (resume|reset|nuke|cleanup)"`
	Force  bool   `json:"force,omitempty" jsonschema:"confirm a destructive action (required with reset and nuke)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (RecoverInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "id")
	shell.Choices(s, "action", ops.RecoverResume, ops.RecoverReset, ops.RecoverNuke, ops.RecoverCleanup)
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.Requires, Properties: []string{"action", "force"}, Values: []any{ops.RecoverReset, ops.RecoverNuke}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:recover",
		Description: "Diagnose a WU whose files, events, worktree and lock disagree, and optionally fix it",
		Annotations: tool.Annotations{DestructiveHint: true},
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("action")), tool.WritesWhen(tool.IsEqual("action", ops.RecoverResume))},
	}, runRecover))
}

// runRecover serves wu:recover natively: a report reads (through the warm index where the
// host keeps one); an action is a writer, in the call's journal.
func runRecover(ctx context.Context, env *tool.Env, in RecoverInput) tool.Output {
	op := ops.WURecoverInput{ID: in.ID, Action: in.Action, Force: in.Force}
	return shell.Serve(ctx, env, shell.Op[ops.WURecoverData]{Write: in.Action != "", Keys: ops.WUKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WURecoverData, ops.Notes, error) {
			return ops.WURecover(ctx, ws, rt, op)
		}})
}
