package agent

import (
	"slices"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// The legacy commands check argv before anything else (commands/convention, spec §2.1):
// the environment, then typed values in flag-table order, then missing required flags.
// Parity calls the lanes without a kernel in front, so no schema validation runs first:
// the native shells repeat those checks in the same order, and a property whose ""
// differs from absent (`--severity=` is not a severity, a missing --severity is any) is
// a pointer in its Input struct.

// checkEnum rejects a present value that is not one of choices (USAGE), "" included, as
// a convention.Enum flag does.
func checkEnum(prop string, v *string, choices ...string) error {
	if v != nil && !slices.Contains(choices, *v) {
		return delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: expected one of %s", *v, tool.FlagName(prop), strings.Join(choices, ", "))
	}
	return nil
}
