package wu

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
)

// serveRead is serve for an operation that only reads: the same order of checks, the
// workspace opened through the host's warm index when there is one
// (shell.ReadWorkspace), and no write journal, as there is nothing to roll back.
func serveRead[D any](ctx context.Context, env *tool.Env, argv error, op operation[D]) tool.Output {
	c, fail := shell.Start(env)
	if fail != nil {
		return withWarnings(*fail, nil)
	}
	if argv != nil {
		return withWarnings(shell.Fail(argv), nil)
	}
	ws, err := shell.ReadWorkspace(ctx, env, ops.WUKeys...)
	if err != nil {
		return withWarnings(shell.Fail(err), nil)
	}
	data, notes, err := op(ctx, ws, c.RT)
	if err != nil {
		return withWarnings(shell.Fail(err), notes.Warnings)
	}
	return withWarnings(tool.OK(data), notes.Warnings)
}
