// Scaffolded by `cmdbridge scaffold mem:inbox` from newMemInboxApp (commands/memory/mem_inbox.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MemInbox, minus printing.

package memory

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// InboxInput is mem:inbox's input: one field per adapter schema property, in the same order.
// Since is a pointer: absent means no filter, while "" is not a SINCE value (`--since=` is
// a usage error). The schema refuses a wu that is not WU-<n> ("" included), so an empty
// wu is an absent one: the session's.
type InboxInput struct {
	Since *string `json:"since,omitempty" jsonschema:"only signals created at or after this (30m, 7d, YYYY-MM-DD or RFC 3339)"`
	WU    string  `json:"wu,omitempty" jsonschema:"only signals of this work unit (default: the current session's) (WU-<n>)"`
	Lane  string  `json:"lane,omitempty" jsonschema:"only signals of this lane"`
	All   bool    `json:"all,omitempty" jsonschema:"include read signals"`
	Mark  bool    `json:"mark,omitempty" jsonschema:"append a read receipt for each unread signal shown"`
}

// AdjustSchema gives wu the WU-<n> pattern of the command's WU flag, so the schema equals
// the adapter's.
func (InboxInput) AdjustSchema(s *jsonschema.Schema) { shell.WUIDs(s, "wu") }

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "mem:inbox",
		Domain:      "memory",
		Description: "List signals (unread by default); mark them read only with mark=true",
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("mark"))},
	}, runInbox))
}

// runInbox serves mem:inbox natively: the SINCE check, then the workspace and
// ops.MemInbox.
func runInbox(ctx context.Context, env *tool.Env, in InboxInput) tool.Output {
	op := ops.MemInboxInput{Since: shell.Deref(in.Since), WU: in.WU, Lane: in.Lane, All: in.All, Mark: in.Mark}
	return shell.Serve(ctx, env, shell.Op[ops.MemInboxData]{Argv: checkSince(in.Since), Write: in.Mark,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.MemInboxData, ops.Notes, error) {
			return ops.MemInbox(ctx, ws, rt, op)
		}})
}

// checkSince rejects a present since that is not a SINCE value (USAGE), "" included, as
// the command's SINCE flag does. The adapter's schema has no keyword for it (the flag
// declares none), and a pattern could not tell a real day from 2026-02-30.
func checkSince(v *string) error {
	if v == nil {
		return nil
	}
	if *v == "" {
		return delivery.Errorf(tool.CodeUsage, "invalid value %q for --since: expected %s", *v, ops.SinceExpected)
	}
	return ops.MemInboxInput{Since: *v}.Check()
}
