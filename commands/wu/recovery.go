package wu

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
)

// reconcileReason is the reason of the events wu:repair appends where the type needs one.
const reconcileReason = "wu:repair reconcile"

// registeredWorktree is ops.RegisteredWorktree.
func registeredWorktree(ctx context.Context, g *delivery.Git, root, rel string) bool {
	return ops.RegisteredWorktree(ctx, g, root, rel)
}

// canonicalPath is ops.CanonicalPath.
func canonicalPath(p string) string { return ops.CanonicalPath(p) }
