package config

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
)

// openWorkspace opens the call's workspace (§1.1: NO_WORKSPACE when there is none).
// config:get and config:set read no typed configuration section up front, so no keys
// are checked here (config:set's commit checks software_delivery.git itself). The
// error is returned as is: it already carries the command's code and message.
func openWorkspace(ctx context.Context, env *tool.Env) (*delivery.Workspace, error) {
	return ops.OpenWorkspace(ctx, env.Dir, shell.LookupEnv(env))
}
