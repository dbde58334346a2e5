// Scaffolded by `cmdbridge scaffold wu:validate` from newWUValidateApp (commands/wu/wu_validate.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WUValidate, minus printing.

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

// ValidateInput is wu:validate's input: one field per adapter schema property, in the same order.
// The schema requires a well-formed id, so it needs no pointer.
type ValidateInput struct {
	ID       string `json:"id" jsonschema:"WU to validate (WU-<n>)"`
	NoStrict bool   `json:"no_strict,omitempty" jsonschema:"structural checks only"`
}

// AdjustSchema adds the keywords a struct tag cannot carry, so the schema native.New
// infers equals the adapter's.
func (ValidateInput) AdjustSchema(s *jsonschema.Schema) { shell.WUIDs(s, "id") }

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "wu:validate",
		Description:  "Validate one WU spec",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runValidate))
}

// runValidate serves wu:validate natively: the workspace (through the host's warm index)
// and ops.WUValidate. An invalid WU is CHECK_FAILED with its report as
// data, as the command's failure envelope carries it.
func runValidate(ctx context.Context, env *tool.Env, in ValidateInput) tool.Output {
	return shell.Serve(ctx, env, shell.Op[ops.WUValidateData]{Keys: ops.WUKeys, Reports: tool.CodeCheckFailed,
		Run: func(ctx context.Context, ws *delivery.Workspace, _ *delivery.Runtime) (ops.WUValidateData, ops.Notes, error) {
			return ops.WUValidate(ctx, ws, ops.WUValidateInput{ID: in.ID, NoStrict: in.NoStrict})
		}})
}
