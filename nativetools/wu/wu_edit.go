// Scaffolded by `cmdbridge scaffold wu:edit` from newWUEditApp (commands/wu/wu_edit.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WUEdit, minus the printing.

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

// EditInput is wu:edit's input: one field per adapter schema property, in the same order.
// The single-valued editing fields are pointers: a given "" (or 0) is an edit the command
// makes (or refuses), not an absent flag. An empty list is an absent flag.
type EditInput struct {
	ID                string   `json:"id" jsonschema:"WU to edit (WU-<n>)"`
	Title             *string  `json:"title,omitempty" jsonschema:"new title"`
	Description       *string  `json:"description,omitempty" jsonschema:"new description"`
	Acceptance        []string `json:"acceptance,omitempty" jsonschema:"acceptance criterion to add (repeatable)"`
	ReplaceAcceptance bool     `json:"replace_acceptance,omitempty" jsonschema:"replace the acceptance list instead of appending"`
	CodePaths         []string `json:"code_paths,omitempty" jsonschema:"code path to add (repeatable)"`
	ReplaceCodePaths  bool     `json:"replace_code_paths,omitempty" jsonschema:"replace the code paths instead of appending"`
	Notes             *string  `json:"notes,omitempty" jsonschema:"note to append on a new line"`
	ReplaceNotes      bool     `json:"replace_notes,omitempty" jsonschema:"replace the notes instead of appending"`
	Lane              *string  `json:"lane,omitempty" jsonschema:"new lane (not while in_progress or blocked)"`
	Priority          *string  `json:"priority,omitempty" jsonschema:"new priority (P0|P1|P2|P3)"`
	Type              *string  `json:"type,omitempty" jsonschema:"new type (feature|bug|documentation|process|tooling|chore|refactor|prototype)"`
	Exposure          *string  `json:"exposure,omitempty" jsonschema:"new exposure (ui|api|backend-only|documentation)"`
	Initiative        *string  `json:"initiative,omitempty" jsonschema:"new initiative id or slug"`
	Phase             *int64   `json:"phase,omitempty" jsonschema:"new phase within the initiative (integer >= 1)"`
	BlockedBy         []string `json:"blocked_by,omitempty" jsonschema:"the WUs this one waits for (replaces the list) (WU-<n>, repeatable)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (patterns, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (EditInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "id", "blocked_by")
	shell.NonBlank(s, "title", "lane")
	shell.Choices(s, "priority", delivery.Priorities...)
	shell.Choices(s, "type", delivery.WUTypes...)
	shell.Choices(s, "exposure", delivery.Exposures...)
	shell.Range(s, "phase", jsonschema.Ptr(1), nil)
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.AnyOf, Properties: []string{"title", "description", "acceptance", "code_paths", "notes", "lane", "priority", "type", "exposure", "initiative", "phase", "blocked_by"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:edit",
		Description: "Edit spec fields of a WU that is not done",
		Annotations: tool.Annotations{DestructiveHint: true},
	}, runEdit))
}

// runEdit serves wu:edit natively: ops.WUEdit in the call's journal ("nothing to edit",
// its Check, is the schema's rule that one editing property is given).
func runEdit(ctx context.Context, env *tool.Env, in EditInput) tool.Output {
	op := ops.WUEditInput{ID: in.ID, Title: in.Title, Description: in.Description,
		Acceptance: in.Acceptance, ReplaceAcceptance: in.ReplaceAcceptance,
		CodePaths: in.CodePaths, ReplaceCodePaths: in.ReplaceCodePaths,
		Notes: in.Notes, ReplaceNotes: in.ReplaceNotes, Lane: in.Lane,
		Priority: in.Priority, Type: in.Type, Exposure: in.Exposure,
		Initiative: in.Initiative, Phase: in.Phase, BlockedBy: in.BlockedBy}
	return serve(ctx, env, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WUEditData, ops.Notes, error) {
		return ops.WUEdit(ctx, ws, rt, op)
	})
}
