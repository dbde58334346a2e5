// Scaffolded by `cmdbridge scaffold flow:report`: the native tool's contract with its legacy command.

package flow_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	_ "github.com/cmdbridge/cmdbridge/commands/flow"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestReportCountsGatesAndCompletionsInTheWindow: the gate runs and the completed WUs
// inside the window are counted, those outside it are not; a date window ends with its
// last day.
func TestReportCountsGatesAndCompletionsInTheWindow(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.WU(t, root, "WU-1", "Core: API")
	nativetest.Write(t, root, "docs/tasks/wu/WU-2.yaml",
		"id: WU-2\ntitle: B\nlane: 'Core: API'\nstatus: done\ncreated: 2026-02-01\ndescription: d\nacceptance: []\n"+
			"claimed_at: 2026-03-01T08:00:00.000Z\ncompleted_at: 2026-03-01T20:00:00.000Z\ncompleted: 2026-03-01\n")
	nativetest.Write(t, root, ".lumenflow/telemetry/gates.ndjson",
		`{"timestamp":"2026-03-01T19:00:00.000Z","wu_id":"WU-2","gate_name":"test","passed":true,"duration_ms":100}`+"\n"+
			`{"timestamp":"2026-03-01T19:30:00.000Z","wu_id":"WU-2","gate_name":"test","passed":false,"duration_ms":300}`+"\n"+
			`{"timestamp":"2026-01-01T00:00:00.000Z","wu_id":null,"gate_name":"vet","passed":true,"duration_ms":5}`+"\n")

	data := nativetest.Data(t, nativetest.Call(t, root, "flow:report", `{}`))
	assert.Equal(t, map[string]any{"start": "2026-02-23", "end": "2026-03-02"}, data["range"])
	gates := data["gates"].(map[string]any)
	assert.Equal(t, 2.0, gates["total"])
	assert.Equal(t, 1.0, gates["passed"])
	wus := data["wus"].(map[string]any)
	assert.Equal(t, 1.0, wus["completed"])

	data = nativetest.Data(t, nativetest.Call(t, root, "flow:report", `{"start":"2026-01-01","end":"2026-01-01"}`))
	assert.Equal(t, 1.0, data["gates"].(map[string]any)["total"])
	assert.Equal(t, 0.0, data["wus"].(map[string]any)["completed"])
}

// TestReportFailures: the schema refuses a date not of the YYYY-MM-DD form ("" included)
// before the handler runs (INVALID_INPUT at the property); a well-formed date that is not
// a calendar day is USAGE and a start after the end VALIDATION, both before the workspace
// is looked for.
func TestReportFailures(t *testing.T) {
	cases := []struct {
		name, input, code, path string
	}{
		{"not a day", `{"start":"2026-02-30"}`, tool.CodeUsage, ""},
		{"one-digit month", `{"end":"2026-3-01"}`, tool.CodeInvalidInput, "/end"},
		{"empty date", `{"end":""}`, tool.CodeInvalidInput, "/end"},
		{"start after end", `{"start":"2026-02-21","end":"2026-02-20"}`, tool.CodeValidation, ""},
		{"no workspace", `{}`, tool.CodeNoWorkspace, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := nativetest.Call(t, t.TempDir(), "flow:report", tc.input)
			if tc.code == tool.CodeInvalidInput {
				nativetest.Refused(t, out, tc.path)
				return
			}
			assert.Equal(t, tc.code, nativetest.Code(t, out))
			assert.Contains(t, out.Metadata, "warnings")
		})
	}
}
