// Scaffolded by `cmdbridge scaffold agent:issues-query`: the native tool's contract with its legacy command.

package agent_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/agent"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// incidents are two category files as agent:log-issue writes them, around now
// (2026-03-02T18:37:08.384Z): one incident is 20 days old, and one line is not JSON.
const toolingIncidents = `{"timestamp":"2026-02-28T12:00:00.000Z","session_id":"s1","wu_id":"WU-1","lane":"Core: API","category":"tooling","severity":"major","title":"Gate flaked","description":"vet timed out","tags":["ci"],"context":{"git_branch":"main"}}
{"timestamp":"2026-03-01T12:00:00.000Z","session_id":"s1","wu_id":"WU-1","lane":"Core: API","category":"tooling","severity":"blocker","title":"Runner offline","description":"no runner","tags":[],"context":{}}
`

const workflowIncidents = `{"timestamp":"2026-02-10T12:00:00.000Z","session_id":"s0","wu_id":"WU-1","lane":"Core: API","category":"workflow","severity":"major","title":"Wrong lane","description":"claimed in the wrong lane","tags":[],"context":{}}
not json
{"timestamp":"2026-03-02T09:00:00.000Z","session_id":"s2","wu_id":"WU-1","lane":"Core: API","category":"workflow","severity":"major","title":"Slow claim","description":"claim took a minute","tags":[],"context":{}}
`

// TestIssuesQueryCountsAndFilters: the window, the filters, the counts in their order
// (descending count, then name), the newest first, and the bad line as a warning.
func TestIssuesQueryCountsAndFilters(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, ".lumenflow/incidents/tooling.ndjson", toolingIncidents)
	nativetest.Write(t, root, ".lumenflow/incidents/workflow.ndjson", workflowIncidents)
	cases := []struct {
		name, input string
		total       float64
		byCategory  string
		bySeverity  string
		titles      []string
	}{
		{"last 7 days", `{}`, 3, `{"tooling":2,"workflow":1}`, `{"major":2,"blocker":1}`,
			[]string{"Slow claim", "Runner offline", "Gate flaked"}},
		{"30 days, major", `{"since":30,"severity":"major"}`, 3, `{"workflow":2,"tooling":1}`, `{"major":3}`,
			[]string{"Slow claim", "Gate flaked", "Wrong lane"}},
		{"category", `{"category":"workflow"}`, 1, `{"workflow":1}`, `{"major":1}`, []string{"Slow claim"}},
		{"empty category is any", `{"category":"","since":1}`, 1, `{"workflow":1}`, `{"major":1}`, []string{"Slow claim"}},
		{"0 days keeps nothing", `{"since":0}`, 0, `{}`, `{}`, []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := call(t, root, "agent:issues-query", tc.input)
			require.True(t, out.Success, "%+v", out.Error)
			raw, err := json.Marshal(out.Data)
			require.NoError(t, err)
			var data struct {
				Total      float64         `json:"total"`
				ByCategory json.RawMessage `json:"by_category"`
				BySeverity json.RawMessage `json:"by_severity"`
				Recent     []struct {
					Title string `json:"title"`
				} `json:"recent"`
			}
			require.NoError(t, json.Unmarshal(raw, &data))
			assert.Equal(t, tc.total, data.Total)
			assert.Equal(t, tc.byCategory, string(data.ByCategory), "keys in count order")
			assert.Equal(t, tc.bySeverity, string(data.BySeverity), "keys in count order")
			titles := []string{}
			for _, r := range data.Recent {
				titles = append(titles, r.Title)
			}
			assert.Equal(t, tc.titles, titles)
			warnings := out.Metadata["warnings"].([]string)
			require.Len(t, warnings, 1)
			assert.Contains(t, warnings[0], "workflow.ndjson line 2: invalid JSON")
		})
	}
}

// TestIssuesQueryFailures: the kernel's schema refuses a severity that is none
// (INVALID_INPUT), before the workspace is looked for; no workspace is NO_WORKSPACE; no
// incidents at all is an empty summary.
func TestIssuesQueryFailures(t *testing.T) {
	root := nativetest.Workspace(t)
	for _, input := range []string{`{"severity":"critical"}`, `{"severity":""}`} {
		assert.Equal(t, nativetest.InvalidAt("/severity"), nativetest.Outcome(t, nativetest.Call(t, t.TempDir(), "agent:issues-query", input)), input)
	}
	assert.Equal(t, tool.CodeNoWorkspace, nativetest.Code(t, nativetest.Call(t, t.TempDir(), "agent:issues-query", `{}`)))
	data := nativetest.Data(t, nativetest.Call(t, root, "agent:issues-query", `{}`))
	assert.Equal(t, map[string]any{"total": 0.0, "by_category": map[string]any{}, "by_severity": map[string]any{},
		"recent": []any{}}, data)
}
