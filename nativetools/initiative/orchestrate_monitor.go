// Scaffolded by `cmdbridge scaffold orchestrate:monitor` from newOrchestrateMonitorApp (commands/initiative/orchestrate_monitor.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.OrchestrateMonitor, minus printing.

package initiative

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// MonitorInput is orchestrate:monitor's input: one field per adapter schema property, in the same order.
type MonitorInput struct {
	Threshold   *int64 `json:"threshold,omitempty" jsonschema:"minutes after which a pending delegation is stuck (integer >= 0)"`
	Since       string `json:"since,omitempty" jsonschema:"signals since: a duration (30m, 7d), a YYYY-MM-DD date or an RFC 3339 timestamp"`
	WU          string `json:"wu,omitempty" jsonschema:"only items whose parent or target is this WU (WU-<n>)"`
	SignalsOnly bool   `json:"signals_only,omitempty" jsonschema:"report signals only"`
	Recover     bool   `json:"recover,omitempty" jsonschema:"time out stuck delegations and signal their targets"`
	DryRun      bool   `json:"dry_run,omitempty" jsonschema:"with recover=true, report the actions without taking them"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (MonitorInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["threshold"].Default = json.RawMessage(strconv.Itoa(defaultMonitorThreshold))
	s.Properties["threshold"].Minimum = jsonschema.Ptr(0.0)
	s.Properties["since"].Default = json.RawMessage(`"` + defaultMonitorSince + `"`)
	shell.WUIDs(s, "wu")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "orchestrate:monitor",
		Domain:      "initiative",
		Description: "Report pending and stuck delegations, stale locks and recent signals; recover=true times out stuck ones",
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("recover")), tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
	}, runMonitor))
}

// The defaults of threshold (minutes) and since, as the command's flags have them.
const (
	defaultMonitorThreshold = 30
	defaultMonitorSince     = "30m"
)

// runMonitor serves orchestrate:monitor natively: since checked before the workspace is
// looked for (USAGE, as the command's own check), then ops.OrchestrateMonitor, a read
// through the warm index unless recover writes (without dry_run), which runs in the
// call's journal.
func runMonitor(ctx context.Context, env *tool.Env, in MonitorInput) tool.Output {
	since := in.Since
	if since == "" {
		since = defaultMonitorSince
	}
	threshold := int64(defaultMonitorThreshold)
	if in.Threshold != nil {
		threshold = *in.Threshold
	}
	_, argv := ops.MonitorSince(since, time.Time{})
	op := ops.OrchestrateMonitorInput{Threshold: time.Duration(threshold) * time.Minute, Since: since, WU: in.WU,
		SignalsOnly: in.SignalsOnly, Recover: in.Recover, DryRun: in.DryRun}
	return shell.Serve(ctx, env, shell.Op[ops.MonitorData]{Argv: argv, Write: in.Recover && !in.DryRun, Keys: ops.InitiativeKeys,
		Run: func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (ops.MonitorData, ops.Notes, error) {
			return ops.OrchestrateMonitor(ctx, ws, rt, op)
		}})
}
