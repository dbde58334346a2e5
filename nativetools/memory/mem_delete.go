// Scaffolded by `cmdbridge scaffold mem:delete` from newMemDeleteApp (commands/memory/mem_delete.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MemDelete, minus printing.

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

// DeleteInput is mem:delete's input: one field per adapter schema property, in the same order.
// The schema holds the command's rule (one of id, tag, older_than; a given "" tag counts,
// and selects nothing; an empty id list does not) and refuses an older_than that is not a
// duration ("" included), so an empty older_than is an absent one.
type DeleteInput struct {
	ID        []string `json:"id,omitempty" jsonschema:"node id mem-xxxx (repeatable)"`
	Tag       string   `json:"tag,omitempty" jsonschema:"delete the nodes with this tag"`
	OlderThan string   `json:"older_than,omitempty" jsonschema:"delete the nodes created longer ago than this (e.g. 30m, 24h, 7d)"`
	DryRun    bool     `json:"dry_run,omitempty" jsonschema:"report without writing"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (the duration and id
// patterns, the command's rule), so the schema native.New infers equals the adapter's.
func (DeleteInput) AdjustSchema(s *jsonschema.Schema) {
	shell.Durations(s, "older_than")
	shell.MemoryIDs(s, "id")
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.AnyOf, Properties: []string{"id", "tag", "older_than"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "mem:delete",
		Domain:      "memory",
		Description: "Soft-delete memory nodes by id, tag or age",
		Annotations: tool.Annotations{DestructiveHint: true, IdempotentHint: true},
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
	}, runDelete))
}

// runDelete serves mem:delete natively: the duration's number and the ids' form (USAGE,
// before the workspace, as in the command), then the workspace and ops.MemDelete inside
// the call's journal.
func runDelete(ctx context.Context, env *tool.Env, in DeleteInput) tool.Output {
	op := ops.MemDeleteInput{IDs: in.ID, Tag: in.Tag, DryRun: in.DryRun}
	age, argv := shell.Duration("older_than", in.OlderThan)
	if age != nil {
		op.OlderThan, op.ByAge = *age, true
	}
	return shell.Serve(ctx, env, shell.Op[ops.MemDeleteData]{Argv: argv, Write: !in.DryRun,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.MemDeleteData, ops.Notes, error) {
			return ops.MemDelete(ctx, ws, rt, op)
		}})
}
