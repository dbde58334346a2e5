// Scaffolded by `cmdbridge scaffold mem:cleanup` from newMemCleanupApp (commands/memory/mem_cleanup.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MemCleanup, minus the printing.

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

// CleanupInput is mem:cleanup's input: one field per adapter schema property, in the same order.
type CleanupInput struct {
	DryRun    bool   `json:"dry_run,omitempty" jsonschema:"report what would be removed without writing"`
	TTL       string `json:"ttl,omitempty" jsonschema:"remove non-project nodes older than this (default: memory.sessionTtl) (e.g. 30m, 24h, 7d)"`
	SessionID string `json:"session_id,omitempty" jsonschema:"remove the session-lifecycle nodes of this session"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (CleanupInput) AdjustSchema(s *jsonschema.Schema) {
	shell.Durations(s, "ttl")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "mem:cleanup",
		Domain:      "memory",
		Description: "Remove ephemeral, deleted, summarised and expired memory nodes and compact memory.jsonl",
		Annotations: tool.Annotations{DestructiveHint: true},
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
	}, runCleanup))
}

// runCleanup serves mem:cleanup natively: the duration's number (USAGE, before the
// workspace, as in the command), then the workspace with memory.sessionTtl checked and
// ops.MemCleanup, inside the call's journal unless it is a dry run.
func runCleanup(ctx context.Context, env *tool.Env, in CleanupInput) tool.Output {
	op := ops.MemCleanupInput{DryRun: in.DryRun, SessionID: in.SessionID}
	ttl, argv := shell.Duration("ttl", in.TTL)
	op.TTL = ttl
	return shell.Serve(ctx, env, shell.Op[ops.MemCleanupData]{Argv: argv, Write: !in.DryRun, Keys: ops.MemCleanupKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.MemCleanupData, ops.Notes, error) {
			return ops.MemCleanup(ctx, ws, rt, op)
		}})
}
