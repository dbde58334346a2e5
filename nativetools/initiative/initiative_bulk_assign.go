// Scaffolded by `cmdbridge scaffold initiative:bulk-assign` from newInitiativeBulkAssignApp (commands/initiative/initiative_bulk_assign.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.InitiativeBulkAssign, minus printing.

package initiative

import (
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// BulkAssignInput is initiative:bulk-assign's input: one field per adapter schema property, in the same order.
type BulkAssignInput struct {
	Config string `json:"config,omitempty" jsonschema:"rules file: rules: [{lane_prefix, initiative}]"`
	Apply  bool   `json:"apply,omitempty" jsonschema:"write and commit the assignments (default: dry run)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (BulkAssignInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["config"].Default = json.RawMessage(`"` + defaultBucketRules + `"`)
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "initiative:bulk-assign",
		Description: "Assign unlinked WUs to initiatives by lane prefix (dry run unless apply=true)",
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("apply"))},
		Paths:       []tool.PathInput{{Property: "config", Access: tool.Read}},
	}, runBulkAssign))
}

// runBulkAssign serves initiative:bulk-assign natively: a dry run reads (through the warm
// index where the host keeps one), an apply run is a writer (journal, commit).
func runBulkAssign(ctx context.Context, env *tool.Env, in BulkAssignInput) tool.Output {
	op := ops.InitiativeBulkAssignInput{Config: in.Config, Apply: in.Apply}
	if op.Config == "" {
		op.Config = defaultBucketRules
	}
	return shell.Serve(ctx, env, shell.Op[ops.InitiativeBulkAssignData]{Write: in.Apply, Keys: ops.InitiativeKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.InitiativeBulkAssignData, ops.Notes, error) {
			return ops.InitiativeBulkAssign(ctx, ws, rt, op)
		}})
}

// defaultBucketRules is the rules file an input without config names (the flag's default).
const defaultBucketRules = "tools/config/initiative-lane-buckets.yaml"
