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
// Tag and OlderThan are pointers: a given "" counts as a selector for the command's rule
// (an empty tag then selects nothing, an empty duration is malformed), an absent one does
// not. An empty id list is not given.
type DeleteInput struct {
	ID        []string `json:"id,omitempty" jsonschema:"node id mem-xxxx (repeatable)"`
	Tag       *string  `json:"tag,omitempty" jsonschema:"delete the nodes with this tag"`
	OlderThan *string  `json:"older_than,omitempty" jsonschema:"delete the nodes created longer ago than this (e.g. 30m, 24h, 7d)"`
	DryRun    bool     `json:"dry_run,omitempty" jsonschema:"report without writing"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (DeleteInput) AdjustSchema(s *jsonschema.Schema) {
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

// deleteSelectors are the properties of the command's OneOf rule, in its order.
var deleteSelectors = []string{"id", "tag", "older_than"}

// runDelete serves mem:delete natively: the duration's form, the command's rule (one of
// id, tag, older_than), the ids' form, then the workspace and ops.MemDelete inside the
// call's journal.
func runDelete(ctx context.Context, env *tool.Env, in DeleteInput) tool.Output {
	call, fail := shell.Start(env)
	if fail != nil {
		return *fail
	}
	op := ops.MemDeleteInput{IDs: in.ID, Tag: value(in.Tag), DryRun: in.DryRun}
	if in.OlderThan != nil {
		if d, err := delivery.ParseDuration(*in.OlderThan); err == nil {
			op.OlderThan, op.ByAge = d, true
		}
	}
	if err := firstErr(checkDuration("older_than", in.OlderThan),
		oneOf(deleteSelectors, len(in.ID) > 0, in.Tag != nil, in.OlderThan != nil), op.Check()); err != nil {
		return result(nil, ops.Notes{}, err)
	}
	ws, err := readOrOpenWorkspace(ctx, env, in.DryRun)
	if err != nil {
		return result(nil, ops.Notes{}, err)
	}
	data, notes, err := shell.Journaled(ctx, call.RT, ws, func() (ops.MemDeleteData, ops.Notes, error) {
		return ops.MemDelete(ctx, ws, call.RT, op)
	})
	return result(data, notes, err)
}
