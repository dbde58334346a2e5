// Scaffolded by `cmdbridge scaffold metrics:snapshot` from newMetricsSnapshotApp (commands/flow/metrics_snapshot.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MetricsSnapshot, minus printing.

package flow

import (
	"cmp"
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// SnapshotInput is metrics:snapshot's input: one field per adapter schema property, in the same order.
// An absent type is all (the schema refuses ""). Days and Output are pointers: 0 days is a
// window while absent is 7; an absent output is the default file relative to the
// workspace root, a given one (even the default's text) is relative to the call's
// directory.
type SnapshotInput struct {
	Type   string  `json:"type,omitempty" jsonschema:"sections to include (all|dora|lanes|flow)"`
	Days   *int64  `json:"days,omitempty" jsonschema:"window length in days, ending now"`
	Output *string `json:"output,omitempty" jsonschema:"file to write, relative to the current directory"`
	DryRun bool    `json:"dry_run,omitempty" jsonschema:"compute and report, write nothing"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (SnapshotInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["type"].Default = json.RawMessage(`"all"`)
	s.Properties["type"].Enum = []any{"all", "dora", "lanes", "flow"}
	s.Properties["days"].Default = json.RawMessage(`7`)
	s.Properties["output"].Default = json.RawMessage(`".lumenflow/snapshots/metrics-latest.json"`)
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "metrics:snapshot",
		Domain:      "flow",
		Description: "Write the metrics data to a JSON file (runtime state, never committed)",
		Annotations: tool.Annotations{DestructiveHint: true, IdempotentHint: true},
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("dry_run")), tool.WritesWhen(tool.IsUnset("output"))},
		Paths:       []tool.PathInput{{Property: "output", Access: tool.Write}},
	}, runSnapshot))
}

// runSnapshot serves metrics:snapshot natively: ops.MetricsSnapshot on the workspace with
// the flow sections checked, inside the call's journal; a dry run only reads, through the
// warm index. The schema refuses an unknown type, "" included.
func runSnapshot(ctx context.Context, env *tool.Env, in SnapshotInput) tool.Output {
	kind := cmp.Or(in.Type, delivery.MetricsAll)
	days := int(shell.Or(in.Days, 7))
	return shell.Serve(ctx, env, shell.Op[ops.MetricsSnapshotData]{Write: !in.DryRun, Keys: ops.FlowKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.MetricsSnapshotData, ops.Notes, error) {
			return ops.MetricsSnapshot(ctx, ws, ops.MetricsSnapshotInput{Type: kind, Days: days, Output: in.Output,
				Dir: env.Dir, DryRun: in.DryRun, Now: rt.Now()})
		}})
}
