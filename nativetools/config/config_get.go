// Scaffolded by `cmdbridge scaffold config:get` from newConfigGetApp (commands/config/config_get.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.ConfigGet, minus printing.

package config

import (
	"context"

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
	if _, fail := shell.Start(env); fail != nil {
		return *fail
	}
	op := ops.ConfigGetInput{Key: in.Key}
	if err := op.Check(); err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	ws, err := openWorkspace(ctx, env)
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	data, notes, err := ops.ConfigGet(ws, op)
	return shell.Result(data, notes, err)
}
