package initiative

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
)

// The native shell of the initiative writers. The kernel validates every call's input
// against the tool's schema before any lane runs (types, required properties, enums,
// patterns, ranges and the rules between properties), so a handler checks only what a
// JSON Schema cannot state, in the command's order.

// checkDay is the verdict of shell.Day on a DATE property (nil when it is a day, or
// absent).
func checkDay(prop, v string) error {
	_, err := shell.Day(prop, v)
	return err
}

// serveWrite runs one initiative writer through shell.Serve with ops.InitiativeKeys
// checked; argv is the verdict of the checks the schema cannot state (nil when none).
func serveWrite[D any](ctx context.Context, env *tool.Env, argv error, op func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (D, ops.Notes, error)) tool.Output {
	return shell.Serve(ctx, env, shell.Op[D]{Argv: argv, Write: true, Keys: ops.InitiativeKeys, Run: op})
}
