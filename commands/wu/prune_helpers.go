package wu

import "github.com/cmdbridge/cmdbridge/delivery/ops"

// canonicalPath is ops.CanonicalPath.
func canonicalPath(p string) string { return ops.CanonicalPath(p) }
