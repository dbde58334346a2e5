// Scaffolded by `cmdbridge scaffold config:set` from newConfigSetApp (commands/config/config_set.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.ConfigSet, minus printing.

package config

import (
	"context"

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
	call, fail := shell.Start(env)
	if fail != nil {
		return *fail
	}
	op := ops.ConfigSetInput{Key: in.Key, Value: in.Value}
	if err := op.Check(); err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	ws, err := openWorkspace(ctx, env)
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	data, notes, err := shell.Journaled(ctx, call.RT, ws, func() (ops.ConfigSetData, ops.Notes, error) { return ops.ConfigSet(ctx, ws, call.RT, op) })
	return shell.Result(data, notes, err)
}
