// Scaffolded by `cmdbridge scaffold config:set` from newConfigSetApp (commands/config/config_set.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.ConfigSet, minus printing.

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

// SetInput is config:set's input: one field per adapter schema property, in the same order.
// The schema requires both; "" reaches the operation (an empty key is VALIDATION, an
// empty value is written as "").
type SetInput struct {
	Key   string `json:"key" jsonschema:"dotted path from the root of workspace.yaml"`
	Value string `json:"value" jsonschema:"new value: true/false and numbers are typed; lists get comma-separated items appended"`
}

// AdjustSchema gives key the form the command checks (a known root key), so the schema
// equals the adapter's.
func (SetInput) AdjustSchema(s *jsonschema.Schema) {
	shell.Pattern(s, ops.ConfigKeyPattern, "key")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "config:set",
		Description: "Set a workspace.yaml value by dotted key and commit it",
		Annotations: tool.Annotations{DestructiveHint: true},
	}, runSet))
}

// runSet serves config:set natively: the environment, the key check (a key config:set
// may write: VALIDATION, before the workspace is looked for, as the command's action
// does; the adapter's schema has no such keyword), then the workspace and ops.ConfigSet
// (which saves workspace.yaml and commits it).
func runSet(ctx context.Context, env *tool.Env, in SetInput) tool.Output {
	op := ops.ConfigSetInput{Key: in.Key, Value: in.Value}
	return shell.Serve(ctx, env, shell.Op[ops.ConfigSetData]{Argv: op.Check(), Write: true,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.ConfigSetData, ops.Notes, error) {
			return ops.ConfigSet(ctx, ws, rt, op)
		}})
}
