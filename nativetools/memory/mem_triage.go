// Scaffolded by `cmdbridge scaffold mem:triage` from newMemTriageApp (commands/memory/mem_triage.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MemTriage, minus printing.

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

// TriageInput is mem:triage's input: one field per adapter schema property, in the same order.
// Pointers mark what the command tells apart from "not given": an absent wu means the
// session's while "" is not a WU id; an empty promote or archive is not a memory id
// (USAGE); a given lane or reason satisfies the command's rules even when it is "" (an
// empty lane is then an unknown lane, an empty reason is recorded). An empty title is the
// derived one, as `--title=` is.
type TriageInput struct {
	WU      *string `json:"wu,omitempty" jsonschema:"only discoveries of this work unit (default: the current session's) (WU-<n>)"`
	Promote *string `json:"promote,omitempty" jsonschema:"discovery to promote to a new WU (mem-xxxx)"`
	Lane    *string `json:"lane,omitempty" jsonschema:"lane of the promoted WU"`
	Title   string  `json:"title,omitempty" jsonschema:"title of the promoted WU (default: the content's first sentence)"`
	Archive *string `json:"archive,omitempty" jsonschema:"discovery to archive (mem-xxxx)"`
	Reason  *string `json:"reason,omitempty" jsonschema:"why the discovery is archived"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (TriageInput) AdjustSchema(s *jsonschema.Schema) {
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"promote", "archive"}}, tool.Constraint{Kind: tool.Requires, Properties: []string{"promote", "lane"}}, tool.Constraint{Kind: tool.Requires, Properties: []string{"archive", "reason"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "mem:triage",
		Domain:      "memory",
		Description: "List open discoveries, promote one to a bug WU, or archive one",
		Annotations: tool.Annotations{DestructiveHint: true},
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("promote"), tool.IsUnset("archive"))},
	}, runTriage))
}

// triageRules are the command's rules, in its order: promote and archive exclusive,
// promote requiring lane, archive requiring reason.
func triageRules(in TriageInput) error {
	switch {
	case in.Promote != nil && in.Archive != nil:
		return delivery.Errorf(tool.CodeUsage, "flags --promote and --archive cannot be used together")
	case in.Promote != nil && in.Lane == nil:
		return delivery.Errorf(tool.CodeUsage, "flag --promote requires --lane")
	case in.Archive != nil && in.Reason == nil:
		return delivery.Errorf(tool.CodeUsage, "flag --archive requires --reason")
	}
	return nil
}

// runTriage serves mem:triage natively: the argv checks (typed values in flag order, then
// the rules), then ops.MemTriage: listing reads the workspace (through the host's warm
// index when there is one); promote and archive write inside the call's journal.
func runTriage(ctx context.Context, env *tool.Env, in TriageInput) tool.Output {
	call, fail := shell.Start(env)
	if fail != nil {
		return *fail
	}
	if err := firstErr(checkWU("wu", in.WU), checkMEM("promote", in.Promote), checkMEM("archive", in.Archive),
		triageRules(in)); err != nil {
		return result(nil, ops.Notes{}, err)
	}
	op := ops.MemTriageInput{WU: value(in.WU), Promote: value(in.Promote), Lane: value(in.Lane),
		Title: in.Title, Archive: value(in.Archive), Reason: value(in.Reason)}
	if in.Promote == nil && in.Archive == nil {
		ws, err := shell.ReadWorkspace(ctx, env)
		if err != nil {
			return result(nil, ops.Notes{}, err)
		}
		data, notes, err := ops.MemTriage(ctx, ws, call.RT, op)
		return result(data, notes, err)
	}
	ws, err := openWorkspace(ctx, env)
	if err != nil {
		return result(nil, ops.Notes{}, err)
	}
	data, notes, err := shell.Journaled(ctx, call.RT, ws, func() (any, ops.Notes, error) {
		return ops.MemTriage(ctx, ws, call.RT, op)
	})
	shell.Wrote(env, ws.Root)
	return result(data, notes, err)
}
