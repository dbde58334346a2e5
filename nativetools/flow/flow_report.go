// Scaffolded by `cmdbridge scaffold flow:report` from newFlowReportApp (commands/flow/flow_report.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.FlowReport, minus printing.

package flow

import (
	"cmp"
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// ReportInput is flow:report's input: one field per adapter schema property, in the same order.
type ReportInput struct {
	Start string `json:"start,omitempty" jsonschema:"first day of the window (then days is ignored) (YYYY-MM-DD)"`
	End   string `json:"end,omitempty" jsonschema:"last day of the window (default today) (YYYY-MM-DD)"`
	// Days is a pointer because 0 is not "absent": the default is 7.
	Days *int64 `json:"days,omitempty" jsonschema:"window length in days, ending now"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (ReportInput) AdjustSchema(s *jsonschema.Schema) {
	shell.Dates(s, "start", "end")
	s.Properties["days"].Default = json.RawMessage(`7`)
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "flow:report",
		Description:  "Report gate pass rates and completed WUs over a window of days or dates",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runReport))
}

// runReport serves flow:report natively: the environment, the dates (the schema refuses a
// malformed one, "" included; one that names no calendar day is USAGE, as the argv phase
// rejects it), the window (a start after the end is VALIDATION, before the workspace is
// looked for), the workspace with the directories and lanes sections checked, read
// through the warm index, then ops.FlowReport.
func runReport(ctx context.Context, env *tool.Env, in ReportInput) tool.Output {
	c, fail := shell.Start(env)
	if fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	start, errStart := shell.Day("start", in.Start)
	end, errEnd := shell.Day("end", in.End)
	if err := cmp.Or(errStart, errEnd); err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	win, err := ops.FlowReportWindow(ops.FlowReportInput{Start: start, End: end, Days: int(shell.Or(in.Days, 7)), Now: c.RT.Now()})
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	ws, err := shell.ReadWorkspace(ctx, env, ops.FlowKeys...)
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	data, notes, err := ops.FlowReport(ctx, ws, win)
	return shell.Result(data, notes, err)
}
