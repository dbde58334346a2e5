package delivery

import (
	"time"

	"github.com/cmdbridge/cmdbridge/tool"
)

// ToolRuntime gives a host (the cmdbridge binary) the clock and id source of one native
// call, built from the call's environment exactly as a legacy command builds its own, so
// DELIVERY_NOW and DELIVERY_SEED make native and legacy lanes agree. An environment that
// does not parse falls back to the wall clock and random ids; the native handler, which
// builds its own Runtime from the same environment, reports the usage error.
func ToolRuntime(lookup func(string) (string, bool)) (now func() time.Time, ids tool.IDSource) {
	rt, err := NewRuntime("", lookup)
	if err != nil {
		rt, _ = NewRuntime("", func(string) (string, bool) { return "", false })
	}
	return rt.Now, rt
}
