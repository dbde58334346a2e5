// Scaffolded by `cmdbridge scaffold state:bootstrap` from newStateBootstrapApp (commands/state/state_bootstrap.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.StateBootstrap, minus printing.

package state

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// BootstrapInput is state:bootstrap's input: one field per adapter schema property, in the same order.
type BootstrapInput struct {
	Execute bool `json:"execute,omitempty" jsonschema:"write the log (the default is a dry run)"`
	Force   bool `json:"force,omitempty" jsonschema:"overwrite a non-empty event log"`
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "state:bootstrap",
		Description: "Build wu-events.jsonl from the WU YAMLs (one-off migration; dry run unless execute=true)",
		Annotations: tool.Annotations{DestructiveHint: true},
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("execute"))},
	}, runBootstrap))
}

// runBootstrap serves state:bootstrap natively: a dry run reads (through the warm index
// where the host keeps one), an execute run is a writer (journal, commit).
func runBootstrap(ctx context.Context, env *tool.Env, in BootstrapInput) tool.Output {
	op := ops.StateBootstrapInput{Execute: in.Execute, Force: in.Force}
	return shell.Serve(ctx, env, shell.Op[ops.StateBootstrapData]{Write: in.Execute, Keys: ops.StateBootstrapKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.StateBootstrapData, ops.Notes, error) {
			return ops.StateBootstrap(ctx, ws, rt, op)
		}})
}
