// Scaffolded by `cmdbridge scaffold state:cleanup` from newStateCleanupApp (commands/state/state_cleanup.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.StateCleanup, minus printing.

package state

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// CleanupInput is state:cleanup's input: one field per adapter schema property, in the same order.
type CleanupInput struct {
	DryRun      bool `json:"dry_run,omitempty" jsonschema:"report what would be removed without writing"`
	SignalsOnly bool `json:"signals_only,omitempty" jsonschema:"run only the signal step"`
	MemoryOnly  bool `json:"memory_only,omitempty" jsonschema:"run only the memory step"`
	EventsOnly  bool `json:"events_only,omitempty" jsonschema:"run only the event step"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (CleanupInput) AdjustSchema(s *jsonschema.Schema) {
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"signals_only", "memory_only"}}, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"signals_only", "events_only"}}, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"memory_only", "events_only"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "state:cleanup",
		Description: "Prune runtime state: expired signals, then memory, then archive the events of long-done WUs",
		Annotations: tool.Annotations{DestructiveHint: true, IdempotentHint: true},
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
	}, runCleanup))
}

// runCleanup serves state:cleanup natively: the environment, the workspace with the
// directories, git and cleanup sections checked, then ops.StateCleanup with the one step
// asked for (the schema refuses two only-flags together). A dry run is a read through the
// host's warm index; a real run is a write: the workspace read from disk, the operation
// in the call's write journal, the index refreshed after.
func runCleanup(ctx context.Context, env *tool.Env, in CleanupInput) tool.Output {
	op := ops.StateCleanupInput{DryRun: in.DryRun}
	switch {
	case in.SignalsOnly:
		op.Only = "signals"
	case in.MemoryOnly:
		op.Only = "memory"
	case in.EventsOnly:
		op.Only = "events"
	}
	return shell.Serve(ctx, env, shell.Op[ops.StateCleanupData]{Write: !in.DryRun, Keys: ops.StateCleanupKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.StateCleanupData, ops.Notes, error) {
			return ops.StateCleanup(ctx, ws, rt, op)
		}})
}
