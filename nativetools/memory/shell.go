package memory

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
)

// The kernel validates every input against the tool's schema before the handler runs (and
// parity does so in front of every lane), so the schema's keywords — types, required
// properties, patterns, choices, bounds and the rules between properties — are not
// checked again here. A handler checks only what the command checks and a schema cannot
// state, before it opens the workspace as the command does; each such check says why.

// result is the Output of an operation: its data on success, its coded error otherwise,
// and its warnings in metadata either way (a warning met before a failure is still part
// of the call's output), listed as the adapter lists the envelope's warnings.
func result(data any, notes ops.Notes, err error) tool.Output {
	out := tool.OK(data)
	if err != nil {
		out = shell.Fail(err)
	}
	warnings := notes.Warnings
	if warnings == nil {
		warnings = []string{}
	}
	return out.WithMeta("warnings", warnings)
}

// openWorkspace opens the call's workspace (§1.1: NO_WORKSPACE when there is none). The
// memory commands read no configuration section, so no keys are checked.
func openWorkspace(ctx context.Context, env *tool.Env) (*delivery.Workspace, error) {
	lookup := env.LookupEnv
	if lookup == nil {
		lookup = tool.EnvFromMap(nil)
	}
	return ops.OpenWorkspace(ctx, env.Dir, delivery.LookupEnv(lookup))
}

// readOrOpenWorkspace opens the call's workspace for a tool whose input decides whether it
// writes: through the host's warm index when this call only reads, from the disk (as
// openWorkspace) when it may write.
func readOrOpenWorkspace(ctx context.Context, env *tool.Env, readOnly bool) (*delivery.Workspace, error) {
	if readOnly {
		return shell.ReadWorkspace(ctx, env)
	}
	return openWorkspace(ctx, env)
}

// appendWorkspace opens the workspace of a writer that only appends new nodes to the
// memory store (mem:checkpoint, mem:create, mem:start): through the host's warm index,
// like a reader, since the store is the only thing it reads and it never changes a node it
// read (the index validates the store on the call, as a read from the disk would; the
// append then reaches the disk directly, and the index decodes only the appended lines on
// its next read).
func appendWorkspace(ctx context.Context, env *tool.Env) (*delivery.Workspace, error) {
	return shell.ReadWorkspace(ctx, env)
}
