// Scaffolded by `cmdbridge scaffold config:get` from newConfigGetApp (commands/config/config_get.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.ConfigGet, minus printing.

package config

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

// GetInput is config:get's input: one field per adapter schema property, in the same order.
// The schema requires key; "" is an unknown root key (VALIDATION).
type GetInput struct {
	Key string `json:"key" jsonschema:"dotted path from the root of workspace.yaml, e.g. software_delivery.git.push"`
}

// AdjustSchema gives key the form the command checks (a known root key), so the schema
// equals the adapter's.
func (GetInput) AdjustSchema(s *jsonschema.Schema) {
	shell.Pattern(s, ops.ConfigKeyPattern, "key")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "config:get",
		Description:  "Print a workspace.yaml value by dotted key, as the file has it",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runGet))
}

// runGet serves config:get natively: the environment, the key check (a root key the
// file may hold: VALIDATION, before the workspace is looked for, as the command's action
// does; the adapter's schema has no such keyword), then the workspace and ops.ConfigGet.
func runGet(ctx context.Context, env *tool.Env, in GetInput) tool.Output {
	op := ops.ConfigGetInput{Key: in.Key}
	return shell.Serve(ctx, env, shell.Op[ops.ConfigGetData]{Argv: op.Check(),
		Run: func(_ context.Context, ws *delivery.Workspace, _ *delivery.Runtime) (ops.ConfigGetData, ops.Notes, error) {
			return ops.ConfigGet(ws, op)
		}})
}
