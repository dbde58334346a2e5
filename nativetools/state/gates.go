// Scaffolded by `cmdbridge scaffold gates` from newGatesApp (commands/state/gates.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.Gates, minus printing.

package state

import (
	"context"
	"io"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/internal/tailbuf"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// GatesInput is gates's input: one field per adapter schema property, in the same order.
type GatesInput struct {
	DocsOnly bool     `json:"docs_only,omitempty" jsonschema:"run only the docs_only gates"`
	Only     []string `json:"only,omitempty" jsonschema:"run only this gate (repeatable)"`
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "gates",
		Domain:      "state",
		Description: "Run the configured gate commands in the checkout that contains the current directory",
		Annotations: tool.Annotations{OpenWorldHint: true, RunsCodeHint: true},
	}, runGates))
}

// runGates serves gates natively: the workspace opened as a writer's (the gates may write
// in the checkout, and the run is journaled as the command's is), then ops.Gates. The
// gate commands run in the jail of the host serving the call (the kernel's, carried by
// the context); their output goes to the call's log, and its last 4 KiB to the
// output's metadata (stderr), where the adapter lane puts the command's stderr. A failed
// gate is GATES_FAILED with the report as data, as the command's failure envelope
// carries it.
func runGates(ctx context.Context, env *tool.Env, in GatesInput) tool.Output {
	var report ops.GatesData
	output := tailbuf.New(outputExcerpt)
	out := shell.Serve(ctx, env, shell.Op[ops.GatesData]{Write: true, Keys: ops.GatesKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.GatesData, ops.Notes, error) {
			var notes ops.Notes
			var err error
			report, notes, err = ops.Gates(ctx, ws, rt, ops.GatesInput{DocsOnly: in.DocsOnly, Only: in.Only,
				Output: io.MultiWriter(env.Log, output)})
			return report, notes, err
		}})
	if out.Error != nil && out.Error.Code == tool.CodeGatesFailed {
		out.Data = report
	}
	return out.WithMeta(tool.MetaStderr, output.String())
}

// outputExcerpt is how much of the gates' output a call's metadata keeps.
const outputExcerpt = 4 << 10
