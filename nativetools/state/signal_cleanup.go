// Scaffolded by `cmdbridge scaffold signal:cleanup` from newSignalCleanupApp (commands/state/signal_cleanup.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.SignalCleanup, minus printing.

package state

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

// SignalCleanupInput is signal:cleanup's input: one field per adapter schema property, in the same order.
// An absent TTL, UnreadTTL or MaxEntries is the configuration's value; MaxEntries is a
// pointer because 0 is a maximum (the schema refuses "" as a duration).
type SignalCleanupInput struct {
	DryRun     bool   `json:"dry_run,omitempty" jsonschema:"report what would be removed without writing"`
	TTL        string `json:"ttl,omitempty" jsonschema:"remove read signals older than this (default: memory.signalCleanup.ttl) (e.g. 30m, 24h, 7d)"`
	UnreadTTL  string `json:"unread_ttl,omitempty" jsonschema:"remove unread signals older than this (default: memory.signalCleanup.unreadTtl) (e.g. 30m, 24h, 7d)"`
	MaxEntries *int64 `json:"max_entries,omitempty" jsonschema:"then keep at most this many signals, removing the oldest (default: memory.signalCleanup.maxEntries)"`
}

// AdjustSchema gives the TTLs the DURATION pattern the command's flags have, so the schema
// native.New infers equals the adapter's and the kernel refuses a malformed one.
func (SignalCleanupInput) AdjustSchema(s *jsonschema.Schema) { shell.Durations(s, "ttl", "unread_ttl") }

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "signal:cleanup",
		Domain:      "state",
		Description: "Prune old signals under the TTL policy (signals of in_progress and blocked WUs are kept)",
		Annotations: tool.Annotations{DestructiveHint: true, IdempotentHint: true},
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
	}, runSignalCleanup))
}

// runSignalCleanup serves signal:cleanup natively: the environment, the durations (one
// too large to count is USAGE), the workspace with the directories and signalCleanup
// sections checked, then ops.SignalCleanup. A dry run is a read through the host's warm
// index; a real run is a write: the workspace read from disk, the operation in the call's
// write journal, the index refreshed after.
func runSignalCleanup(ctx context.Context, env *tool.Env, in SignalCleanupInput) tool.Output {
	op := ops.SignalCleanupInput{DryRun: in.DryRun}
	var argv error
	if op.TTL, argv = shell.Duration("ttl", in.TTL); argv == nil {
		op.UnreadTTL, argv = shell.Duration("unread_ttl", in.UnreadTTL)
	}
	if in.MaxEntries != nil {
		n := int(*in.MaxEntries)
		op.MaxEntries = &n
	}
	return shell.Serve(ctx, env, shell.Op[ops.SignalCleanupData]{Argv: argv, Write: !in.DryRun, Keys: ops.SignalCleanupKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.SignalCleanupData, ops.Notes, error) {
			return ops.SignalCleanup(ctx, ws, rt, op)
		}})
}
