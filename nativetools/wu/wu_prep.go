// Scaffolded by `cmdbridge scaffold wu:prep` from newWUPrepApp (commands/wu/wu_prep.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WUPrep, minus printing.

package wu

import (
	"context"
	"io"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// PrepInput is wu:prep's input: one field per adapter schema property, in the same order.
type PrepInput struct {
	ID       string `json:"id" jsonschema:"WU whose gates run (WU-<n>)"`
	DocsOnly bool   `json:"docs_only,omitempty" jsonschema:"run only the docs_only gates"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (PrepInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "id")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:prep",
		Description: "Run the gates for an in-progress WU in its worktree, before wu:done",
		Annotations: tool.Annotations{OpenWorldHint: true, RunsCodeHint: true},
	}, runPrep))
}

// runPrep serves wu:prep natively: ops.WUPrep through shell.ServeGates (journaled as a
// writer, the gate commands in the host's jail, their output's end in metadata, the
// report carried by GATES_FAILED).
func runPrep(ctx context.Context, env *tool.Env, in PrepInput) tool.Output {
	return shell.ServeGates(ctx, env, ops.WUKeys, true,
		func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, out io.Writer) (ops.WUPrepData, ops.Notes, error) {
			return ops.WUPrep(ctx, ws, rt, ops.WUPrepInput{ID: in.ID, DocsOnly: in.DocsOnly, Output: out})
		})
}
