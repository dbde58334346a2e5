// Scaffolded by `cmdbridge scaffold metrics`: the native tool's contract with its legacy command.

package flow_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/flow"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestMetricsComputesTheSectionsAsked: the default is every section over 7 days; a
// completed bug counts in deploys, lead time and MTTR, an open WU in the flow; a kind asks
// for one section and leaves the others null.
func TestMetricsComputesTheSectionsAsked(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.WU(t, root, "WU-1", "Core: API")
	nativetest.Write(t, root, "docs/tasks/wu/WU-2.yaml",
		"id: WU-2\ntitle: B\nlane: 'Core: API'\ntype: bug\nstatus: done\ncreated: 2026-02-27\ndescription: d\nacceptance: []\n"+
			"claimed_at: 2026-03-01T08:00:00.000Z\ncompleted_at: 2026-03-01T20:00:00.000Z\ncompleted: 2026-03-01\n")

	data := nativetest.Data(t, nativetest.Call(t, root, "metrics", `{}`))
	assert.Equal(t, "all", data["kind"])
	assert.Equal(t, 7.0, data["days"])
	dora, ok := data["dora"].(map[string]any)
	require.True(t, ok, "dora: %#v", data["dora"])
	assert.Equal(t, 12.0, dora["lead_time"].(map[string]any)["average_hours"])
	assert.Equal(t, 1.0, dora["mean_time_to_recovery"].(map[string]any)["incidents"])
	flowSection, ok := data["flow"].(map[string]any)
	require.True(t, ok, "flow: %#v", data["flow"])
	assert.Equal(t, 1.0, flowSection["ready"])
	assert.Equal(t, 1.0, flowSection["done"])

	data = nativetest.Data(t, nativetest.Call(t, root, "metrics", `{"kind":"flow","days":1}`))
	assert.Equal(t, 1.0, data["days"])
	assert.Nil(t, data["dora"])
	assert.Nil(t, data["lanes"])
	assert.NotNil(t, data["flow"])
}

// TestMetricsFailures: the schema refuses an unknown or empty kind (the command's KIND
// positional declares its words), before the workspace is looked for; without a
// workspace the call is NO_WORKSPACE.
func TestMetricsFailures(t *testing.T) {
	for _, input := range []string{`{"kind":"Dora"}`, `{"kind":""}`} {
		nativetest.Refused(t, nativetest.Call(t, t.TempDir(), "metrics", input), "/kind")
	}
	out := nativetest.Call(t, t.TempDir(), "metrics", `{}`)
	assert.Equal(t, tool.CodeNoWorkspace, nativetest.Code(t, out))
	assert.Contains(t, out.Metadata, "warnings")
}
