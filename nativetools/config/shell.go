package config

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
)

// The legacy commands check argv before anything else (commands/convention, spec §2.1):
// the environment, then typed values in flag-table order, then missing required flags.
// Parity calls the lanes without a kernel in front, so no schema validation runs first:
// the native shells repeat those checks in the same order, and a property whose ""
// differs from absent (`--key=` reaches the operation, a missing --key is USAGE) is a
// pointer in its Input struct.

// openWorkspace opens the call's workspace (§1.1: NO_WORKSPACE when there is none).
// config:get and config:set read no typed configuration section up front, so no keys
// are checked here (config:set's commit checks software_delivery.git itself). The
// error is returned as is: it already carries the command's code and message.
func openWorkspace(ctx context.Context, env *tool.Env) (*delivery.Workspace, error) {
	return ops.OpenWorkspace(ctx, env.Dir, shell.LookupEnv(env))
}
