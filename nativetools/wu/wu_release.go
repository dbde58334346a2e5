// Scaffolded by `cmdbridge scaffold wu:release` from newWUReleaseApp (commands/wu/wu_release.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WURelease, minus the printing.

package wu

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

// ReleaseInput is wu:release's input: one field per adapter schema property, in the same order.
// An empty reason is the default one, so it needs no pointer.
type ReleaseInput struct {
	ID             string `json:"id" jsonschema:"WU to release (WU-<n>)"`
	Reason         string `json:"reason,omitempty" jsonschema:"why the claim is given up"`
	RemoveWorktree bool   `json:"remove_worktree,omitempty" jsonschema:"remove the WU's worktree (its branch is kept)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (ReleaseInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "id")
	s.Properties["reason"].Default = json.RawMessage(`"released via wu:release"`)
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:release",
		Description: "Give up a claim and return the WU to ready",
		Annotations: tool.Annotations{DestructiveHint: true},
	}, runRelease))
}

// runRelease serves wu:release natively: ops.WURelease in the call's journal (a blank
// reason is the default one, as the command has it).
func runRelease(ctx context.Context, env *tool.Env, in ReleaseInput) tool.Output {
	op := ops.WUReleaseInput{ID: in.ID, Reason: in.Reason, RemoveWorktree: in.RemoveWorktree}
	return serve(ctx, env, func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.WUReleaseData, ops.Notes, error) {
		return ops.WURelease(ctx, ws, rt, op)
	})
}
