// Scaffolded by `cmdbridge scaffold orchestrate:initiative` from newOrchestrateInitiativeApp (commands/initiative/orchestrate_initiative.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.OrchestrateInitiative (and ops.OrchestrateInitStatus for progress), minus printing.

package initiative

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

// InitiativeInput is orchestrate:initiative's input: one field per adapter schema property, in the same order.
// The schema requires initiative ("" reaches the lookup: NOT_FOUND, as `--initiative ”`
// does) and refuses progress with dry_run.
type InitiativeInput struct {
	Initiative string `json:"initiative" jsonschema:"initiative id or slug"`
	DryRun     bool   `json:"dry_run,omitempty" jsonschema:"plan only, send no signals"`
	Progress   bool   `json:"progress,omitempty" jsonschema:"print orchestrate:init-status and stop"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (InitiativeInput) AdjustSchema(s *jsonschema.Schema) {
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"progress", "dry_run"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "orchestrate:initiative",
		Domain:      "initiative",
		Description: "Plan an initiative's execution waves and signal the first wave",
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run")), tool.ReadOnlyWhen(tool.IsSet("progress"))},
	}, runInitiative))
}

// runInitiative serves orchestrate:initiative natively: progress
// (ops.OrchestrateInitStatus) or a dry run (ops.OrchestrateInitiative sending nothing) on
// a read-only workspace, warm when the host keeps an index, or a real run
// (ops.OrchestrateInitiative sending the wave-1 signals) in the call's journal.
func runInitiative(ctx context.Context, env *tool.Env, in InitiativeInput) tool.Output {
	ref := in.Initiative
	if !in.Progress && !in.DryRun {
		return serveWrite(ctx, env, nil, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.OrchestrateInitiativeData, ops.Notes, error) {
			return ops.OrchestrateInitiative(ctx, ws, rt, ops.OrchestrateInitiativeInput{Ref: ref})
		})
	}
	call, fail := shell.Start(env)
	if fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	ws, err := shell.ReadWorkspace(ctx, env, ops.InitiativeKeys...)
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	if in.Progress {
		data, notes, err := ops.OrchestrateInitStatus(ctx, ws, ops.OrchestrateInitStatusInput{Ref: ref})
		return shell.Result(data, notes, err)
	}
	data, notes, err := ops.OrchestrateInitiative(ctx, ws, call.RT, ops.OrchestrateInitiativeInput{Ref: ref, DryRun: true})
	return shell.Result(data, notes, err)
}
