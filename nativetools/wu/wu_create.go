// Scaffolded by `cmdbridge scaffold wu:create` from newWUCreateApp (commands/wu/wu_create.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around delivery/ops, minus the printing.

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

// CreateInput is wu:create's input: one field per adapter schema property, in the same order.
// The schema refuses what the command's argv phase does (a missing --lane or --title, an
// empty --id or enum value, --phase 0), so a zero value is "not given"; an empty lane or
// title is given, and a VALIDATION failure.
type CreateInput struct {
	Lane            string   `json:"lane" jsonschema:"lane of the WU (must be defined when lanes are)"`
	Title           string   `json:"title" jsonschema:"title of the WU"`
	ID              string   `json:"id,omitempty" jsonschema:"id of the new WU (default: the next free id) (WU-<n>)"`
	Description     string   `json:"description,omitempty" jsonschema:"what the WU delivers and why; required unless no_strict=true or type=prototype: at least wu.minDescriptionLength characters once trimmed (50 by default), without [PLACEHOLDER]"`
	Acceptance      []string `json:"acceptance,omitempty" jsonschema:"an acceptance criterion (repeatable); at least one is required unless no_strict=true or type=prototype, none with [PLACEHOLDER]"`
	CodePaths       []string `json:"code_paths,omitempty" jsonschema:"a path or glob the WU changes (repeatable); at least one is required unless no_strict=true or type is documentation, process or prototype"`
	Exposure        string   `json:"exposure,omitempty" jsonschema:"who sees the change; required unless no_strict=true or type=prototype (ui|api|backend-only|documentation)"`
	Type            string   `json:"type,omitempty" jsonschema:"WU type (default: wu.defaultType) (feature|bug|documentation|process|tooling|chore|refactor|prototype)"`
	Priority        string   `json:"priority,omitempty" jsonschema:"priority (default: wu.defaultPriority) (P0|P1|P2|P3)"`
	Initiative      string   `json:"initiative,omitempty" jsonschema:"initiative id or slug the WU belongs to"`
	Phase           int64    `json:"phase,omitempty" jsonschema:"phase within the initiative (integer >= 1)"`
	BlockedBy       []string `json:"blocked_by,omitempty" jsonschema:"a WU this one waits for (WU-<n>, repeatable)"`
	TestPathsUnit   []string `json:"test_paths_unit,omitempty" jsonschema:"a unit test path (repeatable)"`
	TestPathsManual []string `json:"test_paths_manual,omitempty" jsonschema:"a manual test step (repeatable)"`
	NoStrict        bool     `json:"no_strict,omitempty" jsonschema:"only check the structure, not the strict rules (which require description, acceptance, exposure and code_paths)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (patterns, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (CreateInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "id", "blocked_by")
	shell.NonBlank(s, "lane", "title")
	shell.Choices(s, "exposure", delivery.Exposures...)
	shell.Choices(s, "type", delivery.WUTypes...)
	shell.Choices(s, "priority", delivery.Priorities...)
	shell.Range(s, "phase", jsonschema.Ptr(1), nil)
	// The command's rule, in the schema as the adapter derives it.
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.Requires, Properties: []string{"phase", "initiative"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:create",
		Description: "Create a WU spec in status ready and commit it. Unless no_strict=true (or type=prototype), the strict rules also require description, acceptance, exposure and code_paths: see each",
	}, runCreate))
}

// runCreate serves wu:create natively: ops.WUCreate in the call's journal. Its Check
// (phase with an empty initiative: USAGE) runs inside it, after the workspace, as in the
// command: the schema's rule refuses only a phase without any initiative.
func runCreate(ctx context.Context, env *tool.Env, in CreateInput) tool.Output {
	op := ops.WUCreateInput{ID: in.ID, Lane: in.Lane, Title: in.Title, Description: in.Description,
		Exposure: in.Exposure, Type: in.Type, Priority: in.Priority, Initiative: in.Initiative,
		Phase: int(in.Phase), Acceptance: in.Acceptance, CodePaths: in.CodePaths, BlockedBy: in.BlockedBy,
		TestPathsUnit: in.TestPathsUnit, TestPathsManual: in.TestPathsManual, NoStrict: in.NoStrict}
	return serve(ctx, env, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WUCreateData, ops.Notes, error) {
		return ops.WUCreate(ctx, ws, rt, op)
	})
}
