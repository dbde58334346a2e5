// Scaffolded by `cmdbridge scaffold doctor` from newDoctorApp (commands/workspace/doctor.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.Doctor, minus printing.

package workspace

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// DoctorInput is doctor's input: one field per adapter schema property, in the same order.
type DoctorInput struct {
	Deep bool `json:"deep,omitempty" jsonschema:"also run the validate rules on every WU"`
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "doctor",
		Domain:       "workspace",
		Description:  "Check the workspace setup: config, directories, git, lanes, locks, gates, .gitignore, event log (never writes)",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runDoctor))
}

// runDoctor serves doctor natively: the environment, then the workspace read through the
// warm index (without one doctor still runs and reports it), then ops.Doctor. A failed
// check is CHECK_FAILED with its report as data, as the command's failure envelope
// carries it.
func runDoctor(ctx context.Context, env *tool.Env, in DoctorInput) tool.Output {
	c, fail := shell.Start(env)
	if fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	ws, wsErr := shell.ReadWorkspace(ctx, env)
	data, notes, err := ops.Doctor(ctx, ws, wsErr, c.RT, ops.DoctorInput{Dir: env.Dir, Deep: in.Deep})
	return shell.Reporting(data, notes, err, tool.CodeCheckFailed)
}
