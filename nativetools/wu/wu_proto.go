// Scaffolded by `cmdbridge scaffold wu:proto` from newWUProtoApp (commands/wu/wu_proto.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WUProto, minus printing.

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

// ProtoInput is wu:proto's input: one field per adapter schema property, in the same order.
type ProtoInput struct {
	Lane        string   `json:"lane" jsonschema:"the lane of the prototype"`
	Title       string   `json:"title" jsonschema:"the prototype's title"`
	Description string   `json:"description,omitempty" jsonschema:"what the prototype explores"`
	CodePaths   []string `json:"code_paths,omitempty" jsonschema:"a path the prototype touches (repeatable)"`
	Labels      []string `json:"labels,omitempty" jsonschema:"a label (repeatable, never split on commas)"`
	BranchOnly  bool     `json:"branch_only,omitempty" jsonschema:"claim in the main checkout instead of a worktree"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (ProtoInput) AdjustSchema(s *jsonschema.Schema) {
	shell.NonBlank(s, "lane", "title")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:proto",
		Description: "Create a prototype WU with relaxed rules and claim it right away",
	}, runProto))
}

// runProto serves wu:proto natively, as a writer (serve): ops.WUProto creates the
// prototype WU and claims it, two commits.
func runProto(ctx context.Context, env *tool.Env, in ProtoInput) tool.Output {
	op := ops.WUProtoInput{Lane: in.Lane, Title: in.Title, Description: in.Description, CodePaths: in.CodePaths,
		Labels: in.Labels, BranchOnly: in.BranchOnly}
	return serve(ctx, env, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WUProtoData, ops.Notes, error) {
		return ops.WUProto(ctx, ws, rt, op)
	})
}
