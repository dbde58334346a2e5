package workspace

import "github.com/cmdbridge/cmdbridge/delivery/ops"

// runtimeIgnores are the .gitignore lines for runtime state (spec §3.8): workspace:init
// appends the missing ones and doctor warns about them (ops.RuntimeIgnores).
var runtimeIgnores = ops.RuntimeIgnores
