// Scaffolded by `cmdbridge scaffold wu:unblock` from newWUUnblockApp (commands/wu/wu_unblock.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around delivery/ops, minus the printing.

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

// UnblockInput is wu:unblock's input: one field per adapter schema property, in the same order.
type UnblockInput struct {
	ID     string `json:"id" jsonschema:"WU to unblock (WU-<n>)"`
	Reason string `json:"reason,omitempty" jsonschema:"why the WU can continue (added to its notes)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry, so the schema native.New
// infers equals the adapter's.
func (UnblockInput) AdjustSchema(s *jsonschema.Schema) { shell.WUIDs(s, "id") }

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:unblock",
		Description: "Return a blocked WU to in_progress",
	}, runUnblock))
}

// runUnblock serves wu:unblock natively: ops.WUUnblock in the call's journal (an empty
// reason adds no note, as an empty --reason does).
func runUnblock(ctx context.Context, env *tool.Env, in UnblockInput) tool.Output {
	op := ops.WUUnblockInput{ID: in.ID, Reason: in.Reason}
	return serve(ctx, env, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WUUnblockData, ops.Notes, error) {
		return ops.WUUnblock(ctx, ws, rt, op)
	})
}
