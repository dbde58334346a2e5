// Scaffolded by `cmdbridge scaffold mem:init` from newMemInitApp (commands/memory/mem_init.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MemInit, minus printing.

package memory

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// InitInput is mem:init's input: one field per adapter schema property, in the same order.
type InitInput struct{}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "mem:init",
		Domain:      "memory",
		Description: "Create the memory store (.lumenflow/memory) when it is missing",
		Annotations: tool.Annotations{IdempotentHint: true},
	}, runInit))
}

// runInit serves mem:init natively: the workspace, then ops.MemInit inside the call's
// journal (a failed call removes what it created). The command takes no flags, so there
// is no argv check: an unknown property is refused when the input is decoded.
func runInit(ctx context.Context, env *tool.Env, _ InitInput) tool.Output {
	return shell.Serve(ctx, env, shell.Op[ops.MemInitData]{Write: true,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.MemInitData, ops.Notes, error) {
			return ops.MemInit(ctx, ws, rt, ops.MemInitInput{})
		}})
}
