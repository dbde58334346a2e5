// Scaffolded by `cmdbridge scaffold backlog:prune` from newBacklogPruneApp (commands/state/backlog_prune.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.BacklogPrune, minus printing.

package state

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// PruneInput is backlog:prune's input: one field per adapter schema property, in the same order.
// The thresholds are pointers: absent is the command's default, while 0 is a threshold.
type PruneInput struct {
	Execute             bool   `json:"execute,omitempty" jsonschema:"append the stale note to stale WUs (the default is a dry run)"`
	StaleDaysInProgress *int64 `json:"stale_days_in_progress,omitempty" jsonschema:"days of inactivity after which an in_progress WU is stale"`
	StaleDaysReady      *int64 `json:"stale_days_ready,omitempty" jsonschema:"days of inactivity after which a ready WU is stale"`
	ArchiveDays         *int64 `json:"archive_days,omitempty" jsonschema:"days after completion from which a done WU is archivable"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (PruneInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["stale_days_in_progress"].Default = json.RawMessage(strconv.Itoa(ops.BacklogPruneStaleInProgress))
	s.Properties["stale_days_ready"].Default = json.RawMessage(strconv.Itoa(ops.BacklogPruneStaleReady))
	s.Properties["archive_days"].Default = json.RawMessage(strconv.Itoa(ops.BacklogPruneArchiveDays))
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "backlog:prune",
		Domain:      "state",
		Description: "Tag stale WUs and report the ones that could be archived (dry run unless execute=true)",
		Annotations: tool.Annotations{IdempotentHint: true},
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("execute"))},
	}, runPrune))
}

// runPrune serves backlog:prune natively: the environment, the workspace with the
// directories and git sections checked, then ops.BacklogPrune with each absent threshold
// at its default. A dry run is a read through the host's warm index; execute is a write:
// the workspace read from disk, the operation in the call's write journal, the index
// refreshed after.
func runPrune(ctx context.Context, env *tool.Env, in PruneInput) tool.Output {
	op := ops.BacklogPruneInput{Execute: in.Execute,
		StaleInProgress: days(in.StaleDaysInProgress, ops.BacklogPruneStaleInProgress),
		StaleReady:      days(in.StaleDaysReady, ops.BacklogPruneStaleReady),
		ArchiveDays:     days(in.ArchiveDays, ops.BacklogPruneArchiveDays)}
	return shell.Serve(ctx, env, shell.Op[ops.BacklogPruneData]{Write: in.Execute, Keys: ops.BacklogPruneKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.BacklogPruneData, ops.Notes, error) {
			return ops.BacklogPrune(ctx, ws, rt, op)
		}})
}

// days is a threshold property's value, or def when it is absent.
func days(v *int64, def int) int {
	if v == nil {
		return def
	}
	return int(*v)
}
