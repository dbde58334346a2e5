// Scaffolded by `cmdbridge scaffold agent:log-issue`: the native tool's contract with its legacy command.

package agent_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/agent"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// session is an active session on WU-1 with one major incident logged already.
const session = `{
  "session_id": "s-1",
  "wu_id": "WU-1",
  "lane": "Core: API",
  "started": "2026-03-02T08:00:00.000Z",
  "agent_type": "claude-code",
  "client_type": "claude-code",
  "capabilities": [],
  "agent_version": "unknown",
  "host_id": "unknown",
  "context_tier": 2,
  "incidents_logged": 1,
  "incidents_major": 1
}
`

// TestLogIssueAppendsAndCounts: the incident is appended to its category file with the
// session's fields and the branch, and the session's counters go up (major only for
// major and blocker).
func TestLogIssueAppendsAndCounts(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, ".lumenflow/sessions/current.json", session)
	out := nativetest.Call(t, root, "agent:log-issue", `{"category":"tooling","severity":"blocker","title":"Runner offline",`+
		`"description":"no runner for an hour","resolution":"","tag":["ci","a, b"],"step":"gates","file":["a.go"]}`)
	data := nativetest.Data(t, out)
	assert.Equal(t, ".lumenflow/incidents/tooling.ndjson", data["file"])
	assert.Equal(t, map[string]any{"timestamp": "2026-03-02T18:37:08.384Z", "session_id": "s-1", "wu_id": "WU-1",
		"lane": "Core: API", "category": "tooling", "severity": "blocker", "title": "Runner offline",
		"description": "no runner for an hour", "tags": []any{"ci", "a, b"},
		"context": map[string]any{"git_branch": "main", "current_step": "gates", "related_files": []any{"a.go"}}}, data["incident"])
	out = nativetest.Call(t, root, "agent:log-issue", `{"category":"tooling","severity":"minor","title":"Slow vet","description":"vet took a minute"}`)
	inc := nativetest.Data(t, out)["incident"].(map[string]any)
	assert.Equal(t, []any{}, inc["tags"])
	assert.Equal(t, map[string]any{"git_branch": "main"}, inc["context"])

	lines := strings.Split(strings.TrimSuffix(read(t, root, ".lumenflow/incidents/tooling.ndjson"), "\n"), "\n")
	require.Len(t, lines, 2)
	assert.Equal(t, `{"timestamp":"2026-03-02T18:37:08.384Z","session_id":"s-1","wu_id":"WU-1","lane":"Core: API",`+
		`"category":"tooling","severity":"blocker","title":"Runner offline","description":"no runner for an hour",`+
		`"tags":["ci","a, b"],"context":{"git_branch":"main","current_step":"gates","related_files":["a.go"]}}`, lines[0])
	var s map[string]any
	require.NoError(t, json.Unmarshal([]byte(read(t, root, ".lumenflow/sessions/current.json")), &s))
	assert.Equal(t, 3.0, s["incidents_logged"])
	assert.Equal(t, 2.0, s["incidents_major"], "blocker counts as major, minor does not")
}

// TestLogIssueFailures: the kernel's schema refuses a category or severity that is none
// and a missing required property (INVALID_INPUT, naming the property), then the
// lengths are VALIDATION (every violation), then the session NOT_FOUND; none of them
// writes.
func TestLogIssueFailures(t *testing.T) {
	root := nativetest.Workspace(t)
	ok := `"category":"tooling","severity":"minor","title":"Gate flaked","description":"vet timed out"`
	cases := []struct {
		name, input, code string
		errors            []string
	}{
		{"bad category", `{"category":"bug","severity":"minor","title":"Gate flaked","description":"vet timed out"}`, nativetest.InvalidAt("/category"), nil},
		{"empty severity", `{"category":"tooling","severity":"","title":"Gate flaked","description":"vet timed out"}`, nativetest.InvalidAt("/severity"), nil},
		{"bad severity before a missing category", `{"severity":"critical"}`, nativetest.InvalidAt("/severity"), nil},
		{"missing severity", `{"category":"tooling","title":"Gate flaked","description":"vet timed out"}`, nativetest.InvalidAt("/severity"), nil},
		{"missing description", `{"category":"tooling","severity":"minor","title":"Gate flaked"}`, nativetest.InvalidAt("/description"), nil},
		{"title too short for the schema", `{"category":"tooling","severity":"minor","title":"","description":"vet timed out"}`, nativetest.InvalidAt("/title"), nil},
		{"description too short for the schema", `{"category":"tooling","severity":"minor","title":"Gate flaked","description":"short"}`, nativetest.InvalidAt("/description"), nil},
		{"no session", `{` + ok + `}`, tool.CodeNotFound, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := nativetest.Call(t, root, "agent:log-issue", tc.input)
			assert.Equal(t, tc.code, nativetest.Outcome(t, out))
			if tc.errors != nil {
				assert.Equal(t, map[string]any{"errors": tc.errors}, out.Error.Details)
			}
			assert.NoDirExists(t, filepath.Join(root, ".lumenflow"))
		})
	}
	assert.Equal(t, tool.CodeNoWorkspace, nativetest.Code(t, nativetest.Call(t, t.TempDir(), "agent:log-issue", `{`+ok+`}`)))
}

func read(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	require.NoError(t, err)
	return string(b)
}
