// Scaffolded by `cmdbridge scaffold wu:delegate` from newWUDelegateApp (commands/wu/wu_delegate.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WUDelegate, minus printing.

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

// DelegateInput is wu:delegate's input: one field per adapter schema property, in the same order.
type DelegateInput struct {
	ID        string `json:"id" jsonschema:"the target WU the sub-agent will do (WU-<n>)"`
	ParentWU  string `json:"parent_wu" jsonschema:"the WU delegating the work (WU-<n>)"`
	Client    string `json:"client,omitempty" jsonschema:"the agent client (default: agents.defaultClient)"`
	NoContext bool   `json:"no_context,omitempty" jsonschema:"leave out the memory context"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (DelegateInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "id", "parent_wu")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:delegate",
		Description: "Brief a WU for a sub-agent and record the delegation lineage",
	}, runDelegate))
}

// runDelegate serves wu:delegate natively, as a writer (serve): ops.WUDelegate briefs the
// target and records the delegation and its event.
func runDelegate(ctx context.Context, env *tool.Env, in DelegateInput) tool.Output {
	op := ops.WUDelegateInput{ID: in.ID, ParentWU: in.ParentWU, Client: in.Client, NoContext: in.NoContext}
	return serve(ctx, env, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WUDelegateData, ops.Notes, error) {
		return ops.WUDelegate(ctx, ws, rt, op)
	})
}
