// Scaffolded by `cmdbridge scaffold metrics` from newMetricsApp (commands/flow/metrics.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.Metrics, minus printing.

package flow

import (
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

// MetricsInput is metrics's input: one field per adapter schema property, in the same order.
type MetricsInput struct {
	// Days is a pointer because 0 is not "absent": the default is 7.
	Days *int64 `json:"days,omitempty" jsonschema:"window length in days, ending now"`
	// Kind is absent for all; the schema holds the kinds ("" is none of them).
	Kind *string `json:"kind,omitempty" jsonschema:"which metrics to print (all|dora|lanes|flow; default all)"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (MetricsInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["days"].Default = json.RawMessage(`7`)
	shell.Choices(s, "kind", metricKinds...)
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "metrics",
		Domain:       "flow",
		Description:  "Print DORA, lane and flow metrics over the last days (never writes; see metrics:snapshot)",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runMetrics))
}

// metricKinds are the values of the KIND positional, in the order its schema enum lists them.
var metricKinds = []string{delivery.MetricsAll, delivery.MetricsDORA, delivery.MetricsLanes, delivery.MetricsFlow}

// runMetrics serves metrics natively: the kind (absent is all), the workspace with the directories and lanes sections checked, read through the warm index,
// then ops.Metrics.
func runMetrics(ctx context.Context, env *tool.Env, in MetricsInput) tool.Output {
	kind := shell.Or(in.Kind, delivery.MetricsAll)
	days := int(shell.Or(in.Days, 7))
	return shell.Serve(ctx, env, shell.Op[delivery.Metrics]{Keys: ops.FlowKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (delivery.Metrics, ops.Notes, error) {
			return ops.Metrics(ctx, ws, ops.MetricsInput{Kind: kind, Days: days, Now: rt.Now()})
		}})
}
