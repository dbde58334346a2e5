// Scaffolded by `cmdbridge scaffold orchestrate:init-status` from newOrchestrateInitStatusApp (commands/initiative/orchestrate_init_status.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.OrchestrateInitStatus, minus printing.

package initiative

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// InitStatusInput is orchestrate:init-status's input: one field per adapter schema property, in the same order.
// The schema requires initiative; "" reaches the lookup (NOT_FOUND), as `--initiative ”`
// does.
type InitStatusInput struct {
	Initiative string `json:"initiative" jsonschema:"initiative id or slug"`
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "orchestrate:init-status",
		Domain:       "initiative",
		Description:  "Show an initiative's progress and its WUs by phase",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runInitStatus))
}

// runInitStatus serves orchestrate:init-status natively: the environment, the workspace (with the initiative configuration sections checked) and
// ops.OrchestrateInitStatus.
func runInitStatus(ctx context.Context, env *tool.Env, in InitStatusInput) tool.Output {
	// The command checks its environment first (a bad DELIVERY_NOW is USAGE before
	// anything else), so the native shell does too.
	if _, fail := shell.Start(env); fail != nil {
		return *fail
	}
	ws, err := shell.ReadWorkspace(ctx, env, ops.InitiativeKeys...)
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	data, notes, err := ops.OrchestrateInitStatus(ctx, ws, ops.OrchestrateInitStatusInput{Ref: in.Initiative})
	return shell.Result(data, notes, err)
}
