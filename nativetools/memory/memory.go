package memory

import (
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// memExpected is how a usage message names a memory id, as the command's MEM flag does.
const memExpected = "memory id like mem-1a2b"

// checkMEM rejects a present MEM-typed property that is not a memory id (USAGE), ""
// included, as the command's MEM flag does.
func checkMEM(prop string, v *string) error {
	if v != nil && !delivery.ValidMemoryID(*v) {
		return delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: expected %s", *v, tool.FlagName(prop), memExpected)
	}
	return nil
}

// checkDuration rejects a present DURATION-typed property that is not a duration (USAGE),
// "" included, as the command's DURATION flag does.
func checkDuration(prop string, v *string) error {
	if v == nil {
		return nil
	}
	if _, err := delivery.ParseDuration(*v); err != nil {
		return delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: expected duration like 30m, 24h or 7d", *v, tool.FlagName(prop))
	}
	return nil
}

// oneOf rejects a call that gives none of the properties (USAGE), as the command's OneOf
// rule does; given says which were given, in the rule's order.
func oneOf(props []string, given ...bool) error {
	for _, g := range given {
		if g {
			return nil
		}
	}
	flags := make([]string, len(props))
	for i, p := range props {
		flags[i] = tool.FlagName(p)
	}
	return delivery.Errorf(tool.CodeUsage, "one of --%s is required", strings.Join(flags, ", --"))
}
