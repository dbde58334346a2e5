package integration_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/parity"
)

// baselineFile is the committed count of commands routed native. It only goes up: the
// ratchet fails when the count falls below it, and asks for it to be raised when the
// count passes it, so a later drop is caught.
var baselineFile = filepath.Join("..", "testdata", "parity", "native-baseline.json")

type baseline struct {
	NativeRouted int `json:"native_routed"`
}

// observed collects, per script, the lanes its parity calls compared and whether any
// call found a difference or could not run.
type observed struct {
	mu     sync.Mutex
	lanes  map[string][]string
	failed map[string]bool
}

func (o *observed) observe(script string, rep *parity.Report, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.lanes == nil {
		o.lanes, o.failed = map[string][]string{}, map[string]bool{}
	}
	if err != nil || !rep.OK() {
		o.failed[script] = true
	}
	if rep != nil {
		for _, l := range rep.Lanes {
			if !slices.Contains(o.lanes[script], l) {
				o.lanes[script] = append(o.lanes[script], l)
			}
		}
	}
}

// nativeRouted lists the legacy commands the route table sends to the native lane.
func nativeRouted(t *testing.T) []string {
	var out []string
	for name, route := range nativetools.Default.Routes() {
		if _, isCommand := commands.Lookup(name); isCommand && route == kernel.RouteNative {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// checkRatchet runs after every parity script ran: a command routed native must have a
// parity script that passed and compared the native lane with the legacy ones, without a
// `! parity` hiding a difference; and the native count never drops below the baseline.
func checkRatchet(t *testing.T, seen *observed, passed map[string]bool) {
	t.Run("ratchet", func(t *testing.T) {
		native := nativeRouted(t)
		for _, name := range native {
			script := parity.ScriptName(name)
			ok, ran := passed[script]
			if !assert.True(t, ran, "%s is routed native but has no parity script testdata/script/parity/%s.txtar", name, script) {
				continue
			}
			assert.True(t, ok, "%s is routed native but its parity script fails", name)
			assert.False(t, seen.failed[script], "%s is routed native but a parity call in its script differs or cannot run", name)
			assert.Subset(t, seen.lanes[script], []string{parity.LaneSubprocess, parity.LaneAdapter, parity.LaneNative},
				"%s is routed native but its parity script does not compare all three lanes", name)
		}
		data, err := os.ReadFile(baselineFile)
		require.NoError(t, err)
		var b baseline
		require.NoError(t, json.Unmarshal(data, &b))
		require.GreaterOrEqual(t, len(native), b.NativeRouted,
			"the number of commands routed native went down from %d to %d (%v)", b.NativeRouted, len(native), native)
		require.Equal(t, b.NativeRouted, len(native),
			"%d commands are routed native now: raise %s to %s so the ratchet holds", len(native), baselineFile,
			fmt.Sprintf(`{"native_routed": %d}`, len(native)))
	})
}
