package wu

import (
	"context"
	"slices"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
)

// The native shell around package ops: what the legacy commands' convention runner and
// their Action do around an operation, minus the printing. The order is the command's:
// environment (the runtime), argv checks (USAGE), the input's own Check, the workspace
// (NO_WORKSPACE, CONFIG_INVALID), then the operation.

// usage collects the argv-phase problems the legacy command would report as USAGE
// (exit 2) before running anything: malformed values, then missing required flags. The
// kernel's schema validation catches some of them too (enums), but the handler does not
// rely on it: parity and direct callers reach the handler without the kernel.
type usage struct{ err error }

// fail records the first problem only, as the command reports only its first.
func (u *usage) fail(format string, args ...any) {
	if u.err == nil {
		u.err = delivery.Errorf(tool.CodeUsage, format, args...)
	}
}

// wuID checks a WU-valued flag that was given (a nil value is "not given").
func (u *usage) wuID(flag string, v *string) {
	if v != nil && !delivery.ValidWUID(*v) {
		u.fail("invalid value %q for --%s: expected WU-<number>", *v, flag)
	}
}

// wuIDs checks every element of a repeatable WU-valued flag.
func (u *usage) wuIDs(flag string, vs []string) {
	for _, v := range vs {
		u.wuID(flag, &v)
	}
}

// enum checks a choice flag that was given (a nil value is "not given").
func (u *usage) enum(flag string, v *string, choices []string) {
	if v != nil && !slices.Contains(choices, *v) {
		u.fail("invalid value %q for --%s: expected one of %s", *v, flag, strings.Join(choices, ", "))
	}
}

// required reports a required flag that was not given.
func (u *usage) required(flag string, given bool) {
	if !given {
		u.fail("missing required flag --%s", flag)
	}
}

// then runs check when no problem was recorded yet (the command's combination rules
// come after the flag checks).
func (u *usage) then(check func() error) error {
	if u.err == nil && check != nil {
		u.err = check()
	}
	return u.err
}

// operation is an ops function bound to its input.
type operation[D any] func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (D, ops.Notes, error)

// serve runs one wu writer through shell.Serve with ops.WUKeys checked.
func serve[D any](ctx context.Context, env *tool.Env, argv error, op operation[D]) tool.Output {
	return shell.Serve(ctx, env, shell.Op[D]{Argv: argv, Write: true, Keys: ops.WUKeys, Run: op})
}

// deref is *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// requiredWU checks a required WU-valued flag. Its Input field is a plain string: an
// empty --id is malformed and an absent one is missing, both USAGE, so "" needs no
// pointer to be told apart.
func requiredWU(u *usage, flag, v string) {
	if v == "" {
		u.required(flag, false)
		return
	}
	u.wuID(flag, &v)
}
