// Scaffolded by `cmdbridge scaffold mem:summarize` from newMemSummarizeApp (commands/memory/mem_summarize.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MemSummarize, minus printing.

package memory

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

// SummarizeInput is mem:summarize's input: one field per adapter schema property, in the same order.
type SummarizeInput struct {
	WU     string `json:"wu" jsonschema:"work unit (WU-<n>)"`
	DryRun bool   `json:"dry_run,omitempty" jsonschema:"print the summary without writing"`
}

// AdjustSchema gives wu the WU-<n> pattern of the command's WU flag, so the schema equals
// the adapter's.
func (SummarizeInput) AdjustSchema(s *jsonschema.Schema) { shell.WUIDs(s, "wu") }

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "mem:summarize",
		Domain:      "memory",
		Description: "Aggregate a WU's memory nodes into one project summary node",
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
	}, runSummarize))
}

// runSummarize serves mem:summarize natively: the workspace, then ops.MemSummarize inside
// the call's journal (a failed call leaves memory.jsonl as it was).
func runSummarize(ctx context.Context, env *tool.Env, in SummarizeInput) tool.Output {
	return shell.Serve(ctx, env, shell.Op[ops.MemSummarizeData]{Write: !in.DryRun,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.MemSummarizeData, ops.Notes, error) {
			return ops.MemSummarize(ctx, ws, rt, ops.MemSummarizeInput{WU: in.WU, DryRun: in.DryRun})
		}})
}
