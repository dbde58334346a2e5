package state

import (
	"context"
	"regexp"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
)

// durationForm is spec §2.1's DURATION form, which the argv phase requires of a duration
// flag.
var durationForm = regexp.MustCompile(`^\d+[smhdw]$`)

// duration checks a present DURATION property as the command's flag does (USAGE, ""
// included) and returns its value; nil when absent.
func duration(prop string, v *string) (*time.Duration, error) {
	if v == nil {
		return nil, nil
	}
	if !durationForm.MatchString(*v) {
		return nil, delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: expected duration like 30m, 24h or 7d", *v, tool.FlagName(prop))
	}
	d, err := delivery.ParseDuration(*v)
	if err != nil {
		return nil, delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: %v", *v, tool.FlagName(prop), err)
	}
	return &d, nil
}

// serveState runs one state operation the way the legacy shell does, once the argv checks
// passed: the workspace with keys checked, then the operation. A read (write false) goes
// through the host's warm index; a write reads the workspace from disk, runs in the
// call's write journal (a failure rolls its writes back) and refreshes the index after.
// Warnings go to metadata, on failure too.
func serveState[D any](ctx context.Context, env *tool.Env, c *shell.Call, write bool, keys []string, op func(*delivery.Workspace) (D, ops.Notes, error)) tool.Output {
	if !write {
		ws, err := shell.ReadWorkspace(ctx, env, keys...)
		if err != nil {
			return shell.Result(nil, ops.Notes{}, err)
		}
		data, notes, err := op(ws)
		return shell.Result(data, notes, err)
	}
	ws, err := ops.OpenWorkspace(ctx, env.Dir, shell.LookupEnv(env), keys...)
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	data, notes, err := shell.Journaled(ctx, c.RT, ws, func() (D, ops.Notes, error) { return op(ws) })
	shell.Wrote(env, ws.Root)
	return shell.Result(data, notes, err)
}
