// Scaffolded by `cmdbridge scaffold validate` from newValidateApp (commands/state/validate.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.Validate, minus printing.

package state

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// ValidateInput is validate's input: one field per adapter schema property, in the same order.
type ValidateInput struct {
	ID       string `json:"id,omitempty" jsonschema:"validate only this WU (WU-<n>)"`
	Strict   bool   `json:"strict,omitempty" jsonschema:"warnings fail too"`
	DoneOnly bool   `json:"done_only,omitempty" jsonschema:"validate only done WUs"`
}

// AdjustSchema gives id the WU-<number> pattern the command's flag has, so the schema
// native.New infers equals the adapter's and the kernel refuses a malformed id ("" included).
func (ValidateInput) AdjustSchema(s *jsonschema.Schema) { shell.WUIDs(s, "id") }

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "validate",
		Domain:       "state",
		Description:  "Validate every WU (or one) with its cross-references: stamps, initiatives, dependencies, lanes",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runValidate))
}

// runValidate serves validate natively: the environment, the workspace with the
// directories, lanes and wu sections checked, read through the warm index, then
// ops.Validate. A failed check is CHECK_FAILED with its report as data, as the command's
// failure envelope carries it.
func runValidate(ctx context.Context, env *tool.Env, in ValidateInput) tool.Output {
	if _, fail := shell.Start(env); fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	ws, err := shell.ReadWorkspace(ctx, env, ops.ValidateKeys...)
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	data, notes, err := ops.Validate(ctx, ws, ops.ValidateInput{ID: in.ID, Strict: in.Strict, DoneOnly: in.DoneOnly})
	return shell.Reporting(data, notes, err, tool.CodeCheckFailed)
}
