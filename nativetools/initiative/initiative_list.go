// Scaffolded by `cmdbridge scaffold initiative:list` from newInitiativeListApp (commands/initiative/initiative_list.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.InitiativeList, minus printing.

package initiative

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// ListInput is initiative:list's input: one field per adapter schema property, in the same order.
type ListInput struct {
	// Status is a pointer because "" is not "absent": --status= keeps no initiative.
	Status *string `json:"status,omitempty" jsonschema:"only initiatives with this derived status"`
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "initiative:list",
		Description:  "List initiatives with their derived status and progress",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runList))
}

// runList serves initiative:list natively: the environment, the workspace (directories
// checked) read through the warm index, then ops.InitiativeList.
func runList(ctx context.Context, env *tool.Env, in ListInput) tool.Output {
	if _, fail := shell.Start(env); fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	ws, err := shell.ReadWorkspace(ctx, env, ops.InitiativeKeys...)
	if err != nil {
		return result(nil, ops.Notes{}, err)
	}
	data, notes, err := ops.InitiativeList(ctx, ws, ops.InitiativeListInput{Status: in.Status})
	return result(data, notes, err)
}
