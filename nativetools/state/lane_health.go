// Scaffolded by `cmdbridge scaffold lane:health` from newLaneHealthApp (commands/state/lane_health.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.LaneHealth, minus printing.

package state

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// HealthInput is lane:health's input: one field per adapter schema property, in the same order.
type HealthInput struct {
	Verbose    bool `json:"verbose,omitempty" jsonschema:"list the files no lane covers"`
	NoCoverage bool `json:"no_coverage,omitempty" jsonschema:"skip the gap check"`
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "lane:health",
		Domain:       "state",
		Description:  "Check lane definitions against the repository's files (overlaps and gaps)",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runHealth))
}

// runHealth serves lane:health natively: the environment, the workspace with the lanes and
// directories sections checked, then ops.LaneHealth. A failed check (CHECK_FAILED) carries
// its report as data, as the command's failure envelope does.
func runHealth(ctx context.Context, env *tool.Env, in HealthInput) tool.Output {
	c, fail := shell.Start(env)
	if fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	ws, err := shell.ReadWorkspace(ctx, env, ops.LaneHealthKeys...)
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	data, notes, err := ops.LaneHealth(ctx, ws, c.RT, ops.LaneHealthInput{Verbose: in.Verbose, NoCoverage: in.NoCoverage})
	return shell.Reporting(data, notes, err, tool.CodeCheckFailed)
}
