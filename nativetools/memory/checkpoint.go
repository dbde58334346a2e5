// Scaffolded by `cmdbridge scaffold mem:checkpoint` from newMemCheckpointApp (commands/memory/mem_checkpoint.go).
// The Input struct reproduces the adapter's input schema; write the handler, then delete the
// NOT_IMPLEMENTED test and route the tool native once its parity script passes.

package memory

import (
	"context"

	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// CheckpointInput is mem:checkpoint's input: one field per adapter schema property, in the same order.
type CheckpointInput struct {
	Note      string `json:"note" jsonschema:"what was achieved (non-empty)"`
	WU        string `json:"wu,omitempty" jsonschema:"work unit (default: the current session's) (WU-<n>)"`
	Session   string `json:"session,omitempty" jsonschema:"session uuid (default: the current session's)"`
	Progress  string `json:"progress,omitempty" jsonschema:"progress summary"`
	NextSteps string `json:"next_steps,omitempty" jsonschema:"what comes next"`
}

func init() {
	nativetools.Register(nativetools.New(tool.Spec{
		Name:        "mem:checkpoint",
		Domain:      "memory",
		Description: "Record a progress checkpoint as a memory node (and a WU checkpoint event)",
	}, runCheckpoint))
}

// runCheckpoint serves mem:checkpoint natively. Until it is written the tool answers NOT_IMPLEMENTED, so its
// parity script fails and its route stays adapter.
func runCheckpoint(ctx context.Context, env *tool.Env, in CheckpointInput) tool.Output {
	return tool.Fail(tool.CodeNotImplemented, "mem:checkpoint: the native handler is not written yet")
}
