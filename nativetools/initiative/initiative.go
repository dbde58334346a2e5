package initiative

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
)

// The native shell of the initiative writers. The legacy commands check argv before
// anything else (commands/convention, spec §2.1): the environment, then typed values in
// flag-table order, then missing required flags, then the combination rules. Parity calls
// the lanes without a kernel in front, so no schema validation runs first: the handlers
// repeat those checks in the same order, and a property whose "" differs from absent is a
// pointer in its Input struct.

// checkEnum rejects a present value that is not one of choices (USAGE), "" included, as
// a convention.Enum flag does.
func checkEnum(prop string, v *string, choices ...string) error {
	if v != nil && !slices.Contains(choices, *v) {
		return delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: expected one of %s", *v, tool.FlagName(prop), strings.Join(choices, ", "))
	}
	return nil
}

// dateForm is a DATE flag's form; time.Parse alone would also take a one-digit day.
var dateForm = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// checkDate rejects a present value that is not a YYYY-MM-DD calendar day (USAGE), as a
// convention.Date flag does.
func checkDate(prop string, v *string) error {
	if v == nil {
		return nil
	}
	if _, err := time.Parse(time.DateOnly, *v); err != nil || !dateForm.MatchString(*v) {
		return delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: expected YYYY-MM-DD date", *v, tool.FlagName(prop))
	}
	return nil
}

// checkWU rejects a present value that is not a WU id (USAGE), as a convention.WU flag does.
func checkWU(prop string, v *string) error {
	if v != nil && !delivery.ValidWUID(*v) {
		return delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: expected WU-<number>", *v, tool.FlagName(prop))
	}
	return nil
}

// checkMin rejects a present integer below lo (USAGE), as a bounded convention.Int does.
func checkMin(prop string, v *int64, lo int64) error {
	if v != nil && *v < lo {
		return delivery.Errorf(tool.CodeUsage, "invalid value \"%d\" for --%s: expected integer >= %d", *v, tool.FlagName(prop), lo)
	}
	return nil
}

// serveWrite runs one initiative writer through shell.Serve with ops.InitiativeKeys
// checked.
func serveWrite[D any](ctx context.Context, env *tool.Env, argv error, op func(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime) (D, ops.Notes, error)) tool.Output {
	return shell.Serve(ctx, env, shell.Op[D]{Argv: argv, Write: true, Keys: ops.InitiativeKeys, Run: op})
}
