// Scaffolded by `cmdbridge scaffold wu:unblock` from newWUUnblockApp (commands/wu/wu_unblock.go).
// The Input struct reproduces the adapter's input schema; write the handler, then delete the
// NOT_IMPLEMENTED test and route the tool native once its parity script passes.

package wu

import (
	"context"

	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// UnblockInput is wu:unblock's input: one field per adapter schema property, in the same order.
type UnblockInput struct {
	ID     string `json:"id" jsonschema:"WU to unblock (WU-<n>)"`
	Reason string `json:"reason,omitempty" jsonschema:"why the WU can continue (added to its notes)"`
}

func init() {
	nativetools.Register(nativetools.New(tool.Spec{
		Name:        "wu:unblock",
		Domain:      "wu",
		Description: "Return a blocked WU to in_progress",
	}, runUnblock))
}

// runUnblock serves wu:unblock natively. Until it is written the tool answers NOT_IMPLEMENTED, so its
// parity script fails and its route stays adapter.
func runUnblock(ctx context.Context, env *tool.Env, in UnblockInput) tool.Output {
	return tool.Fail(tool.CodeNotImplemented, "wu:unblock: the native handler is not written yet")
}
