// Scaffolded by `cmdbridge scaffold mem:inbox` from newMemInboxApp (commands/memory/mem_inbox.go).
// The Input struct reproduces the adapter's input schema; write the handler, then delete the
// NOT_IMPLEMENTED test and route the tool native once its parity script passes.

package memory

import (
	"context"

	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/tool"
)

// InboxInput is mem:inbox's input: one field per adapter schema property, in the same order.
type InboxInput struct {
	Since string `json:"since,omitempty" jsonschema:"only signals created at or after this (30m, 7d, YYYY-MM-DD or RFC 3339)"`
	WU    string `json:"wu,omitempty" jsonschema:"only signals of this work unit (default: the current session's) (WU-<n>)"`
	Lane  string `json:"lane,omitempty" jsonschema:"only signals of this lane"`
	All   bool   `json:"all,omitempty" jsonschema:"include read signals"`
	Mark  bool   `json:"mark,omitempty" jsonschema:"append a read receipt for each unread signal shown"`
}

func init() {
	nativetools.Register(nativetools.New(tool.Spec{
		Name:        "mem:inbox",
		Domain:      "memory",
		Description: "List signals (unread by default); mark them read only with --mark",
	}, runInbox))
}

// runInbox serves mem:inbox natively. Until it is written the tool answers NOT_IMPLEMENTED, so its
// parity script fails and its route stays adapter.
func runInbox(ctx context.Context, env *tool.Env, in InboxInput) tool.Output {
	return tool.Fail(tool.CodeNotImplemented, "mem:inbox: the native handler is not written yet")
}
