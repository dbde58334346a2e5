// Scaffolded by `cmdbridge scaffold state:doctor` from newStateDoctorApp (commands/state/state_doctor.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.StateDoctor, minus printing.

package state

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// DoctorInput is state:doctor's input: one field per adapter schema property, in the same order.
type DoctorInput struct {
	Fix    bool `json:"fix,omitempty" jsonschema:"repair the fixable issues and commit the changed artifacts"`
	DryRun bool `json:"dry_run,omitempty" jsonschema:"with fix=true: only report what is fixable, write nothing"`
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "state:doctor",
		Description: "Check the integrity of the whole workspace state (WUs, stamps, events, signals, locks); fix=true repairs it",
		Annotations: tool.Annotations{DestructiveHint: true, IdempotentHint: true},
		Effects:     []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("fix")), tool.ReadOnlyWhen(tool.IsSet("dry_run"))},
	}, runDoctor))
}

// runDoctor serves state:doctor natively: the environment, the workspace with the
// directories and git sections checked, then ops.StateDoctor. A check or a dry run is a
// read through the host's warm index; a fix is a write: the workspace read from disk, the
// operation in the call's write journal (its commit a durable point), the index refreshed
// after. Issues left are CHECK_FAILED with the report as data, as the command's failure
// envelope carries it.
func runDoctor(ctx context.Context, env *tool.Env, in DoctorInput) tool.Output {
	c, fail := shell.Start(env)
	if fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	op := ops.StateDoctorInput{Fix: in.Fix, DryRun: in.DryRun}
	var (
		data  ops.StateDoctorData
		notes ops.Notes
		err   error
	)
	if !in.Fix || in.DryRun {
		ws, werr := shell.ReadWorkspace(ctx, env, ops.StateDoctorKeys...)
		if werr != nil {
			return shell.Result(nil, ops.Notes{}, werr)
		}
		data, notes, err = ops.StateDoctor(ctx, ws, c.RT, op)
	} else {
		ws, werr := ops.OpenWorkspace(ctx, env.Dir, shell.LookupEnv(env), ops.StateDoctorKeys...)
		if werr != nil {
			return shell.Result(nil, ops.Notes{}, werr)
		}
		data, notes, err = shell.Journaled(ctx, c.RT, ws, func() (ops.StateDoctorData, ops.Notes, error) {
			return ops.StateDoctor(ctx, ws, c.RT, op)
		})
		shell.Wrote(env, ws.Root)
	}
	return shell.Reporting(data, notes, err, tool.CodeCheckFailed)
}
