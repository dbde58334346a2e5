package shell

import (
	"context"
	"io"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/internal/tailbuf"
	"github.com/cmdbridge/cmdbridge/tool"
)

// outputExcerpt is how much of the gates' output a call's metadata keeps: as much as the
// adapter keeps of a command's stderr.
const outputExcerpt = 4 << 10

// ServeGates serves an operation that runs gate commands (gates, wu:prep): the workspace
// opened as a writer's (the gates may write in the checkout, and the run is journaled as
// the command's is), then run with a writer for the gates' own output. The gate commands
// run in the jail of the host serving the call (the kernel's, carried by the context).
// Their output goes to the call's log and its last 4 KiB to the output's metadata
// (tool.MetaStderr), where the adapter lane puts the command's stderr. With report, a
// failed gate's GATES_FAILED carries the operation's data, as the command's failure
// envelope does (gates, wu:prep; wu:done's carries none).
func ServeGates[D any](ctx context.Context, env *tool.Env, keys []string, report bool, run func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, out io.Writer) (D, ops.Notes, error)) tool.Output {
	output := tailbuf.New(outputExcerpt)
	op := Op[D]{Write: true, Keys: keys,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (D, ops.Notes, error) {
			return run(ctx, ws, rt, io.MultiWriter(env.Log, output))
		}}
	if report {
		op.Reports = tool.CodeGatesFailed
	}
	return Serve(ctx, env, op).WithMeta(tool.MetaStderr, output.String())
}
