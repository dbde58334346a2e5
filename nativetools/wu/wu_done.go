// Scaffolded by `cmdbridge scaffold wu:done` from newWUDoneApp (commands/wu/wu_done.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.WUDone, minus printing.

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

// DoneInput is wu:done's input: one field per adapter schema property, in the same order.
type DoneInput struct {
	ID           string `json:"id" jsonschema:"WU to complete (WU-<n>)"`
	SkipGates    bool   `json:"skip_gates,omitempty" jsonschema:"do not run the gates (needs reason and fix_wu; audited)"`
	Reason       string `json:"reason,omitempty" jsonschema:"why the gates are skipped"`
	FixWU        string `json:"fix_wu,omitempty" jsonschema:"WU that will fix what the skipped gates would catch (WU-<n>)"`
	KeepWorktree bool   `json:"keep_worktree,omitempty" jsonschema:"keep the worktree and the lane branch"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (DoneInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "id", "fix_wu")
	if err := tool.ApplyConstraints(s, tool.Constraint{Kind: tool.Together, Properties: []string{"skip_gates", "reason"}}, tool.Constraint{Kind: tool.Together, Properties: []string{"skip_gates", "fix_wu"}}); err != nil {
		panic(err)
	}
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "wu:done",
		Description: "Complete a WU: run the gates, merge the lane branch, stamp, commit, clean up",
		Annotations: tool.Annotations{OpenWorldHint: true, RunsCodeHint: true},
		Effects:     []tool.Effect{tool.WritesWhen(tool.IsSet("skip_gates"))},
		Network:     true,
	}, runDone))
}

// runDone serves wu:done natively: ops.WUDone through shell.ServeGates (journaled as a
// writer, the gate commands in the host's jail, their output's end in metadata; a failed
// gate's GATES_FAILED carries no data, as the command's does not).
func runDone(ctx context.Context, env *tool.Env, in DoneInput) tool.Output {
	op := ops.WUDoneInput{ID: in.ID, SkipGates: in.SkipGates, Reason: in.Reason, FixWU: in.FixWU, KeepWorktree: in.KeepWorktree}
	return shell.ServeGates(ctx, env, ops.WUKeys, false,
		func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, out io.Writer) (ops.WUDoneData, ops.Notes, error) {
			op.Output = out
			return ops.WUDone(ctx, ws, rt, op)
		})
}
