// Scaffolded by `cmdbridge scaffold wu:infer-lane` from newWUInferLaneApp (commands/wu/wu_infer_lane.go).
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

// InferLaneInput is wu:infer-lane's input: one field per adapter schema property, in the same order.
// The schema refuses an empty id and states the rules between the properties (an empty
// desc counts as given there), so no field needs to tell "" from absent.
type InferLaneInput struct {
	ID    string   `json:"id,omitempty" jsonschema:"use this WU's code_paths, title and description (WU-<n>)"`
	Paths []string `json:"paths,omitempty" jsonschema:"a path the work touches (repeatable)"`
	Desc  string   `json:"desc,omitempty" jsonschema:"text describing the work"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (patterns, rules), so the
// schema native.New infers equals the adapter's.
func (InferLaneInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "id")
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.AnyOf, Properties: []string{"id", "paths", "desc"}}, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"id", "paths"}}, tool.Constraint{Kind: tool.Exclusive, Properties: []string{"id", "desc"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "wu:infer-lane",
		Description:  "Suggest a lane from code paths and text",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runInferLane))
}

// runInferLane serves wu:infer-lane natively: ops.WUInferLane on the warm workspace (the
// command's rules, one of id, paths, desc and id with neither other, are the schema's).
func runInferLane(ctx context.Context, env *tool.Env, in InferLaneInput) tool.Output {
	op := ops.WUInferLaneInput{ID: in.ID, Paths: in.Paths, Desc: in.Desc}
	return serveRead(ctx, env, func(ctx context.Context, ws *delivery.Workspace, _ *delivery.Runtime) (ops.WUInferLaneData, ops.Notes, error) {
		return ops.WUInferLane(ctx, ws, op)
	})
}
