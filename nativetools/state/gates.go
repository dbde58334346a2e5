// Scaffolded by `cmdbridge scaffold gates` from newGatesApp (commands/state/gates.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.Gates, minus printing.

package state

import (
	"context"
	"io"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
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

// runGates serves gates natively: ops.Gates through shell.ServeGates (journaled as a
// writer, the gate commands in the host's jail, their output's end in metadata, the
// report carried by GATES_FAILED).
func runGates(ctx context.Context, env *tool.Env, in GatesInput) tool.Output {
	return shell.ServeGates(ctx, env, ops.GatesKeys, true,
		func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, out io.Writer) (ops.GatesData, ops.Notes, error) {
			return ops.Gates(ctx, ws, rt, ops.GatesInput{DocsOnly: in.DocsOnly, Only: in.Only, Output: out})
		})
}
