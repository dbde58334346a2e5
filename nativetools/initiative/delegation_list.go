// Scaffolded by `cmdbridge scaffold delegation:list` from newDelegationListApp (commands/initiative/delegation_list.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.DelegationList, minus printing.

package initiative

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// DelegationListInput is delegation:list's input: one field per adapter schema property, in the same order.
// The schema gives exactly one of them, and a given wu is a WU id, so an empty WU is an
// initiative lookup ("" included: NOT_FOUND).
type DelegationListInput struct {
	WU         string `json:"wu,omitempty" jsonschema:"parent WU (WU-<n>)"`
	Initiative string `json:"initiative,omitempty" jsonschema:"initiative id or slug"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (patterns, rules), so the
// schema native.New infers equals the adapter's.
func (DelegationListInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "wu")
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

// runDelegationList serves delegation:list natively: the environment, the workspace (with
// the initiative configuration sections checked) and ops.DelegationList.
func runDelegationList(ctx context.Context, env *tool.Env, in DelegationListInput) tool.Output {
	if _, fail := shell.Start(env); fail != nil {
		return *fail
	}
	ws, err := shell.ReadWorkspace(ctx, env, ops.InitiativeKeys...)
	if err != nil {
		return result(nil, ops.Notes{}, err)
	}
	data, notes, err := ops.DelegationList(ctx, ws, ops.DelegationListInput{WU: in.WU, Initiative: in.Initiative})
	return result(data, notes, err)
}
