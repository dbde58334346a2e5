package memory

import (
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

// orDefault is *p, or def when the property is absent (a given "" stays "", as `--flag=`).
func orDefault(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}
