// Scaffolded by `cmdbridge scaffold metrics:snapshot` from newMetricsSnapshotApp (commands/flow/metrics_snapshot.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.MetricsSnapshot, minus printing.

package flow

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// SnapshotInput is metrics:snapshot's input: one field per adapter schema property, in the same order.
// Type, Days and Output are pointers: "" is not a type (USAGE) while absent is all; 0 days
// is a window while absent is 7; an absent output is the default file relative to the
// workspace root, a given one (even the default's text) is relative to the call's
// directory.
type SnapshotInput struct {
	Type   *string `json:"type,omitempty" jsonschema:"sections to include (all|dora|lanes|flow)"`
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

// runSnapshot serves metrics:snapshot natively: the environment, the type (an unknown
// one, "" included, is USAGE, as the argv phase rejects it), the workspace with the flow
// sections checked, then ops.MetricsSnapshot inside the call's journal.
func runSnapshot(ctx context.Context, env *tool.Env, in SnapshotInput) tool.Output {
	c, fail := shell.Start(env)
	if fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	kind := delivery.MetricsAll
	if in.Type != nil {
		kind = *in.Type
	}
	if !slices.Contains(metricKinds, kind) {
		err := delivery.Errorf(tool.CodeUsage, "invalid value %q for --type: expected one of %s", kind, strings.Join(metricKinds, ", "))
		return shell.Result(nil, ops.Notes{}, err)
	}
	days := int64(7)
	if in.Days != nil {
		days = *in.Days
	}
	ws, err := ops.OpenWorkspace(ctx, env.Dir, shell.LookupEnv(env), ops.FlowKeys...)
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	op := ops.MetricsSnapshotInput{Type: kind, Days: int(days), Output: in.Output, Dir: env.Dir,
		DryRun: in.DryRun, Now: c.RT.Now()}
	data, notes, err := shell.Journaled(ctx, c.RT, ws, func() (ops.MetricsSnapshotData, ops.Notes, error) {
		return ops.MetricsSnapshot(ctx, ws, op)
	})
	shell.Wrote(env, ws.Root)
	return shell.Result(data, notes, err)
}
