// Scaffolded by `cmdbridge scaffold wu:repair` from newWURepairApp (commands/wu/wu_repair.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WURepair, minus printing.

package wu

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

// RepairInput is wu:repair's input: one field per adapter schema property, in the same order.
type RepairInput struct {
	ID          string `json:"id,omitempty" jsonschema:"WU to repair (WU-<n>)"`
	All         bool   `json:"all,omitempty" jsonschema:"repair every WU"`
	RepairState bool   `json:"repair_state,omitempty" jsonschema:"drop the invalid lines of wu-events.jsonl (a backup is kept)"`
	Check       bool   `json:"check,omitempty" jsonschema:"only report what would be repaired (read-only; fails if anything is found)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (RepairInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "id")
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"id", "all"}}, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"id", "repair_state"}}, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"all", "repair_state"}}, tool.Constraint{Kind: tool.AnyOf, Properties: []string{"id", "all", "repair_state"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:repair",
		Description: "Repair inconsistencies automatically, treating the YAML as the source of truth",
		Annotations: tool.Annotations{DestructiveHint: true},
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("check"))},
	}, runRepair))
}

// runRepair serves wu:repair natively: a check reads (through the warm index where the
// host keeps one) and fails with CHECK_FAILED carrying its report when it finds anything;
// a repair is a writer, in the call's journal.
func runRepair(ctx context.Context, env *tool.Env, in RepairInput) tool.Output {
	op := ops.WURepairInput{ID: in.ID, All: in.All, RepairState: in.RepairState, Check: in.Check}
	return shell.Serve(ctx, env, shell.Op[ops.WURepairData]{Write: !in.Check, Keys: ops.WUKeys, Reports: tool.CodeCheckFailed,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WURepairData, ops.Notes, error) {
			return ops.WURepair(ctx, ws, rt, op)
		}})
}
