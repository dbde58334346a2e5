// Scaffolded by `cmdbridge scaffold wu:delete` from newWUDeleteApp (commands/wu/wu_delete.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WUDelete, minus the printing.

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

// DeleteInput is wu:delete's input: one field per adapter schema property, in the same order.
// An empty id list is a missing --id, so it needs no pointer.
type DeleteInput struct {
	ID     []string `json:"id" jsonschema:"WU to delete (WU-<n>, repeatable)"`
	DryRun bool     `json:"dry_run,omitempty" jsonschema:"report what would be deleted without deleting"`
}

// AdjustSchema adds the keywords a struct tag cannot carry, so the schema native.New
// infers equals the adapter's.
func (DeleteInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "id")
	shell.NonEmpty(s, "id")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:delete",
		Description: "Delete WU specs and everything derived from them",
		Annotations: tool.Annotations{DestructiveHint: true},
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
	}, runDelete))
}

// runDelete serves wu:delete natively: ops.WUDelete in the call's journal (a dry run
// writes nothing). The schema requires id but, as the adapter derives it, not that the
// list holds an id: an empty list passes no --id, which the command refuses as a missing
// flag (USAGE) before the workspace, so that check stays.
func runDelete(ctx context.Context, env *tool.Env, in DeleteInput) tool.Output {
	op := ops.WUDeleteInput{IDs: in.ID, DryRun: in.DryRun}
	// A dry run only reads: through the host's warm index.
	return shell.Serve(ctx, env, shell.Op[ops.WUDeleteData]{Write: !in.DryRun, Keys: ops.WUKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WUDeleteData, ops.Notes, error) {
			return ops.WUDelete(ctx, ws, rt, op)
		}})
}
