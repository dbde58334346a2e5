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
// ID and Desc are pointers: a given "" is not "absent" (an empty --id is malformed, an
// empty --desc counts as given for the one-of rule).
type InferLaneInput struct {
	ID    *string  `json:"id,omitempty" jsonschema:"use this WU's code_paths, title and description (WU-<n>)"`
	Paths []string `json:"paths,omitempty" jsonschema:"a path the work touches (repeatable)"`
	Desc  *string  `json:"desc,omitempty" jsonschema:"text describing the work"`
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

// runInferLane serves wu:infer-lane natively: the id's form, then the command's rules
// (one of id, paths, desc; id with neither of the others), then ops.WUInferLane on the
// warm workspace.
func runInferLane(ctx context.Context, env *tool.Env, in InferLaneInput) tool.Output {
	var u usage
	u.wuID("id", in.ID)
	given := map[string]bool{"id": in.ID != nil, "paths": len(in.Paths) > 0, "desc": in.Desc != nil}
	if !given["id"] && !given["paths"] && !given["desc"] {
		u.fail("one of --id, --paths, --desc is required")
	}
	for _, other := range []string{"paths", "desc"} {
		if given["id"] && given[other] {
			u.fail("flags --id and --%s cannot be used together", other)
		}
	}
	op := ops.WUInferLaneInput{ID: deref(in.ID), Paths: in.Paths, Desc: deref(in.Desc)}
	return serveRead(ctx, env, u.then(nil), func(ctx context.Context, ws *delivery.Workspace, _ *delivery.Runtime) (ops.WUInferLaneData, ops.Notes, error) {
		return ops.WUInferLane(ctx, ws, op)
	})
}
