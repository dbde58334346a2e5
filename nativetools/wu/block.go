// Scaffolded by `cmdbridge scaffold wu:block` from newWUBlockApp (commands/wu/wu_block.go).
// The Input struct reproduces the adapter's input schema; write the handler, then delete the
// NOT_IMPLEMENTED test and route the tool native once its parity script passes.

package wu

import (
	"context"

	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// BlockInput is wu:block's input: one field per adapter schema property, in the same order.
type BlockInput struct {
	ID             string `json:"id" jsonschema:"WU to block (WU-<n>)"`
	Reason         string `json:"reason" jsonschema:"why the WU is blocked"`
	RemoveWorktree bool   `json:"remove_worktree,omitempty" jsonschema:"remove the WU's worktree (its branch is kept)"`
}

func init() {
	nativetools.Register(nativetools.New(tool.Spec{
		Name:        "wu:block",
		Domain:      "wu",
		Description: "Mark an in-progress WU as blocked",
	}, runBlock))
}

// runBlock serves wu:block natively. Until it is written the tool answers NOT_IMPLEMENTED, so its
// parity script fails and its route stays adapter.
func runBlock(ctx context.Context, env *tool.Env, in BlockInput) tool.Output {
	return tool.Fail(tool.CodeNotImplemented, "wu:block: the native handler is not written yet")
}
