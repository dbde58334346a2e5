// Scaffolded by `cmdbridge scaffold initiative:create` from newInitiativeCreateApp (commands/initiative/initiative_create.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.InitiativeCreate, minus printing.

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

// CreateInput is initiative:create's input: one field per adapter schema property, in the same order.
// Pointers mark what the command tells apart from "not given": an empty id or slug is a
// given value (VALIDATION, not a default) and an empty owner is written. The schema
// requires the title ("" is given: VALIDATION) and refuses an empty priority or target
// date, so "" is their absence.
type CreateInput struct {
	Title         string   `json:"title" jsonschema:"initiative title"`
	ID            *string  `json:"id,omitempty" jsonschema:"initiative id (default: the next INIT-<n>)"`
	Slug          *string  `json:"slug,omitempty" jsonschema:"unique kebab-case slug (default: kebab of the title)"`
	Description   string   `json:"description,omitempty" jsonschema:"what the initiative delivers"`
	Priority      string   `json:"priority,omitempty" jsonschema:"priority (P0|P1|P2|P3)"`
	Owner         *string  `json:"owner,omitempty" jsonschema:"owner of the initiative"`
	TargetDate    string   `json:"target_date,omitempty" jsonschema:"target date (YYYY-MM-DD)"`
	Phase         []string `json:"phase,omitempty" jsonschema:"phase title, once per phase"`
	SuccessMetric []string `json:"success_metric,omitempty" jsonschema:"success metric, once per metric"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, patterns), so
// the schema native.New infers equals the adapter's.
func (CreateInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["priority"].Default = json.RawMessage(`"P2"`)
	shell.Choices(s, "priority", delivery.Priorities...)
	shell.Dates(s, "target_date")
	shell.NonBlank(s, "title")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "initiative:create",
		Description: "Create an initiative file and commit it",
	}, runCreate))
}

// runCreate serves initiative:create natively: the target date's day (the schema checks
// its form), then ops.InitiativeCreate in the call's journal.
func runCreate(ctx context.Context, env *tool.Env, in CreateInput) tool.Output {
	op := ops.InitiativeCreateInput{Title: in.Title, ID: in.ID, Slug: in.Slug,
		Description: in.Description, Priority: in.Priority, Owner: in.Owner,
		TargetDate: in.TargetDate, Phases: in.Phase, SuccessMetrics: in.SuccessMetric}
	return serveWrite(ctx, env, checkDay("target_date", in.TargetDate), func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.InitiativeCreateData, ops.Notes, error) {
		return ops.InitiativeCreate(ctx, ws, rt, op)
	})
}
