package shell

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Op is one operation a native tool serves, once its input decoded.
type Op[D any] struct {
	// Argv is the verdict of the argv checks the command makes and a schema cannot state
	// (a date that is no day, a duration too long for a time.Duration, a blank reason):
	// a USAGE (or VALIDATION) error, or nil. Everything else the kernel's schema validator refused before
	// the handler ran. It is reported after the environment's, as the command orders them.
	Argv error
	// Write marks a writer: the workspace is a private copy (WriteWorkspace), the
	// operation runs in the call's write journal (a failure rolls its writes back) and
	// the host's warm index is refreshed after. A read goes through the warm index when the host has one.
	Write bool
	// Append marks a writer that only appends new records to the append-only stores it
	// reads (the memory store): it reads through the warm index as a read does (the
	// index validates what it holds on the call, as a read from the disk would) and runs
	// in the write journal as a write does; the index decodes the appended lines on its
	// next read, so nothing is refreshed.
	Append bool
	// Keys are the configuration sections checked when the workspace opens.
	Keys []string
	// Reports, when set, is the failure code that still carries the operation's data
	// (Reporting).
	Reports string
	// Run is the shared operation (delivery/ops).
	Run func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (D, ops.Notes, error)
}

// Serve runs op the way the legacy shell does: the runtime from the call's environment
// (a bad DELIVERY_NOW is USAGE first), the argv verdict, the workspace, the operation.
// The Output is Result's: the data on success, the coded error otherwise, the warnings
// in metadata either way.
func Serve[D any](ctx context.Context, env *tool.Env, op Op[D]) tool.Output {
	c, fail := Start(env)
	if fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	if op.Argv != nil {
		return Result(nil, ops.Notes{}, op.Argv)
	}
	if !op.Write {
		ws, err := ReadWorkspace(ctx, env, op.Keys...)
		if err != nil {
			return Result(nil, ops.Notes{}, err)
		}
		if op.Append {
			data, notes, err := Journaled(ctx, c.RT, ws, func() (D, ops.Notes, error) { return op.Run(ctx, ws, c.RT) })
			return Reporting(data, notes, err, op.Reports)
		}
		data, notes, err := op.Run(ctx, ws, c.RT)
		return Reporting(data, notes, err, op.Reports)
	}
	ws, err := WriteWorkspace(ctx, env, op.Keys...)
	if err != nil {
		return Result(nil, ops.Notes{}, err)
	}
	data, notes, err := Journaled(ctx, c.RT, ws, func() (D, ops.Notes, error) { return op.Run(ctx, ws, c.RT) })
	Wrote(env, ws.Root)
	return Reporting(data, notes, err, op.Reports)
}
