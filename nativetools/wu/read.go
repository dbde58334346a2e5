package wu

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
)

// serveRead is serve for an operation that only reads: through the host's warm index
// when there is one, and no write journal, as there is nothing to roll back.
func serveRead[D any](ctx context.Context, env *tool.Env, op operation[D]) tool.Output {
	return shell.Serve(ctx, env, shell.Op[D]{Keys: ops.WUKeys, Run: op})
}
