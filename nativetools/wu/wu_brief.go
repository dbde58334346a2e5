// Scaffolded by `cmdbridge scaffold wu:brief` from newWUBriefApp (commands/wu/wu_brief.go).
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

// BriefInput is wu:brief's input: one field per adapter schema property, in the same order.
type BriefInput struct {
	ID           string `json:"id" jsonschema:"the WU to brief (WU-<n>)"`
	Client       string `json:"client,omitempty" jsonschema:"the agent client (default: agents.defaultClient)"`
	NoContext    bool   `json:"no_context,omitempty" jsonschema:"leave out the memory context"`
	EvidenceOnly bool   `json:"evidence_only,omitempty" jsonschema:"record the evidence without printing the prompt"`
}

// AdjustSchema adds the keywords a struct tag cannot carry, so the schema native.New
// infers equals the adapter's.
func (BriefInput) AdjustSchema(s *jsonschema.Schema) { shell.WUIDs(s, "id") }

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:brief",
		Description: "Generate the handoff prompt for the agent doing a WU and record the evidence",
	}, runBrief))
}

// runBrief serves wu:brief natively: ops.WUBrief, which appends the checkpoint event
// inside the call's journal (no commit, as the command).
func runBrief(ctx context.Context, env *tool.Env, in BriefInput) tool.Output {
	op := ops.WUBriefInput{ID: in.ID, Client: in.Client, NoContext: in.NoContext, EvidenceOnly: in.EvidenceOnly}
	return serve(ctx, env, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WUBriefData, ops.Notes, error) {
		return ops.WUBrief(ctx, ws, rt, op)
	})
}
