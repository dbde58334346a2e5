package wu

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
)

// The native shell around package ops: what the legacy commands' convention runner and
// their Action do around an operation, minus the printing. The kernel's schema validator
// has already refused what the command's argv phase would refuse (types, required
// properties, patterns, enums, ranges, the rules between properties: INVALID_INPUT, on
// every lane); what is left is the command's order: environment (the runtime), the
// few argv checks a schema cannot state, the workspace (NO_WORKSPACE, CONFIG_INVALID),
// then the operation.

// operation is an ops function bound to its input.
type operation[D any] func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (D, ops.Notes, error)

// serve runs one wu writer through shell.Serve with ops.WUKeys checked.
func serve[D any](ctx context.Context, env *tool.Env, op operation[D]) tool.Output {
	return serveChecked(ctx, env, nil, op)
}

// serveChecked is serve for a writer whose command makes an argv check the schema
// cannot state: argv is its verdict (a USAGE error, or nil), reported after the
// environment's and before the workspace is looked for, as the command orders them.
func serveChecked[D any](ctx context.Context, env *tool.Env, argv error, op operation[D]) tool.Output {
	return shell.Serve(ctx, env, shell.Op[D]{Argv: argv, Write: true, Keys: ops.WUKeys, Run: op})
}
