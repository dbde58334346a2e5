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
// Both are pointers: absent is a missing required flag (USAGE), while "" reaches the
// operation (an empty key is VALIDATION, an empty value is written as "").
type SetInput struct {
	Key   *string `json:"key" jsonschema:"dotted path from the root of workspace.yaml"`
	Value *string `json:"value" jsonschema:"new value: true/false and numbers are typed; lists get comma-separated items appended"`
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "config:set",
		Description: "Set a workspace.yaml value by dotted key and commit it",
		Annotations: tool.Annotations{DestructiveHint: true},
	}, runSet))
}

// runSet serves config:set natively: the command's argv checks, the key check, then the
// workspace and ops.ConfigSet (which saves workspace.yaml and commits it).
func runSet(ctx context.Context, env *tool.Env, in SetInput) tool.Output {
	call, fail := shell.Start(env)
	if fail != nil {
		return *fail
	}
	op := ops.ConfigSetInput{Key: shell.Deref(in.Key), Value: shell.Deref(in.Value)}
	if err := shell.FirstErr(shell.RequireFlag("key", in.Key != nil), shell.RequireFlag("value", in.Value != nil), op.Check()); err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	ws, err := openWorkspace(ctx, env)
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	data, notes, err := shell.Journaled(ctx, call.RT, ws, func() (ops.ConfigSetData, ops.Notes, error) { return ops.ConfigSet(ctx, ws, call.RT, op) })
	return shell.Result(data, notes, err)
}
