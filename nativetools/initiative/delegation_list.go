// Scaffolded by `cmdbridge scaffold delegation:list` from newDelegationListApp (commands/initiative/delegation_list.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.DelegationList, minus printing.

package initiative

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

// DelegationListInput is delegation:list's input: one field per adapter schema property, in the same order.
// Both are pointers: a given property counts for the one-of and exclusive rules even when
// it is "" (`--initiative=` is given, and resolves to no initiative), and "" is not a WU id.
type DelegationListInput struct {
	WU         *string `json:"wu,omitempty" jsonschema:"parent WU (WU-<n>)"`
	Initiative *string `json:"initiative,omitempty" jsonschema:"initiative id or slug"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (DelegationListInput) AdjustSchema(s *jsonschema.Schema) {
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.AnyOf, Properties: []string{"wu", "initiative"}}, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"wu", "initiative"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "delegation:list",
		Domain:       "initiative",
		Description:  "List the delegations of a WU (recursively) or of an initiative as a tree",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runDelegationList))
}

// runDelegationList serves delegation:list natively: the command's argv checks (the wu
// value, then one of wu and initiative, then not both), the workspace (with the
// initiative configuration sections checked) and ops.DelegationList.
func runDelegationList(ctx context.Context, env *tool.Env, in DelegationListInput) tool.Output {
	if _, fail := shell.Start(env); fail != nil {
		return *fail
	}
	if err := delegationListArgv(in); err != nil {
		return result(nil, ops.Notes{}, err)
	}
	ws, err := shell.ReadWorkspace(ctx, env, ops.InitiativeKeys...)
	if err != nil {
		return result(nil, ops.Notes{}, err)
	}
	data, notes, err := ops.DelegationList(ctx, ws, ops.DelegationListInput{WU: shell.Deref(in.WU), Initiative: shell.Deref(in.Initiative)})
	return result(data, notes, err)
}

// delegationListArgv is the command's argv phase: a given wu must be WU-<n>, and exactly
// one of wu and initiative is given (USAGE), in the command's order.
func delegationListArgv(in DelegationListInput) error {
	switch {
	case in.WU != nil && !delivery.ValidWUID(*in.WU):
		return delivery.Errorf(tool.CodeUsage, "invalid value %q for --wu: expected WU-<number>", *in.WU)
	case in.WU == nil && in.Initiative == nil:
		return delivery.Errorf(tool.CodeUsage, "one of --wu, --initiative is required")
	case in.WU != nil && in.Initiative != nil:
		return delivery.Errorf(tool.CodeUsage, "flags --wu and --initiative cannot be used together")
	}
	return nil
}
