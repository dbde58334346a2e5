// Scaffolded by `cmdbridge scaffold validate` from newValidateApp (commands/state/validate.go).
// The Input struct reproduces the adapter's input schema; the handler is the command's shell
// around ops.Validate, minus printing.

package state

import (
	"context"
	"regexp"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// ValidateInput is validate's input: one field per adapter schema property, in the same order.
type ValidateInput struct {
	// ID is a pointer because "" is not "absent": "" is an invalid --id, absent checks every WU.
	ID       *string `json:"id,omitempty" jsonschema:"validate only this WU (WU-<n>)"`
	Strict   bool    `json:"strict,omitempty" jsonschema:"warnings fail too"`
	DoneOnly bool    `json:"done_only,omitempty" jsonschema:"validate only done WUs"`
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:         "validate",
		Domain:       "state",
		Description:  "Validate every WU (or one) with its cross-references: stamps, initiatives, dependencies, lanes",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runValidate))
}

// wuForm is the form the argv phase requires of a WU flag.
var wuForm = regexp.MustCompile(`^WU-\d+$`)

// runValidate serves validate natively: the environment, the id form (USAGE, as the argv
// phase rejects it), the workspace with the directories, lanes and wu sections checked,
// read through the warm index, then ops.Validate. A failed check is CHECK_FAILED with its
// report as data, as the command's failure envelope carries it.
func runValidate(ctx context.Context, env *tool.Env, in ValidateInput) tool.Output {
	if _, fail := shell.Start(env); fail != nil {
		return fail.WithMeta("warnings", []string{})
	}
	if in.ID != nil && !wuForm.MatchString(*in.ID) {
		err := delivery.Errorf(tool.CodeUsage, "invalid value %q for --id: expected WU-<number>", *in.ID)
		return shell.Result(nil, ops.Notes{}, err)
	}
	ws, err := shell.ReadWorkspace(ctx, env, ops.ValidateKeys...)
	if err != nil {
		return shell.Result(nil, ops.Notes{}, err)
	}
	data, notes, err := ops.Validate(ctx, ws, ops.ValidateInput{ID: shell.Deref(in.ID), Strict: in.Strict, DoneOnly: in.DoneOnly})
	out := shell.Result(data, notes, err)
	if err != nil && delivery.AsError(err).Code == tool.CodeCheckFailed {
		out.Data = data // a check reports what it found with its failure
	}
	return out
}
