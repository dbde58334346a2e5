// Scaffolded by `cmdbridge scaffold mem:summarize`: the native tool's contract with its legacy command.

package memory_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// summarizeNodes are WU-1's nodes: a wu discovery, a long session checkpoint, a project
// note, and nodes that are never sources (ephemeral, deleted, a summary, another WU).
var summarizeNodes = strings.Join([]string{
	`{"id":"mem-0001","type":"discovery","lifecycle":"wu","content":"DB is slow","created_at":"2026-03-01T08:00:00.000Z","wu_id":"WU-1"}`,
	`{"id":"mem-0002","type":"checkpoint","lifecycle":"session","content":"` + strings.Repeat("c", 201) + `","created_at":"2026-03-01T09:00:00.000Z","wu_id":"WU-1"}`,
	`{"id":"mem-0003","type":"note","lifecycle":"project","content":"Keep the API small","created_at":"2026-03-01T07:00:00.000Z","wu_id":"WU-1"}`,
	`{"id":"mem-0004","type":"note","lifecycle":"ephemeral","content":"ephemeral","created_at":"2026-03-01T09:00:00.000Z","wu_id":"WU-1"}`,
	`{"id":"mem-0005","type":"note","lifecycle":"session","content":"deleted","created_at":"2026-03-01T07:00:00.000Z","wu_id":"WU-1","metadata":{"status":"deleted"}}`,
	`{"id":"mem-0006","type":"summary","lifecycle":"project","content":"older summary","created_at":"2026-03-01T07:00:00.000Z","wu_id":"WU-1"}`,
	`{"id":"mem-0007","type":"note","lifecycle":"wu","content":"other","created_at":"2026-03-01T07:00:00.000Z","wu_id":"WU-2"}`,
}, "\n") + "\n"

// TestSummarizeAggregatesAndMarks: the summary content by type in section order (long
// content cut), the sources that are not project marked with an appended version and
// not summarised again; dry_run writes nothing.
func TestSummarizeAggregatesAndMarks(t *testing.T) {
	root := nativetest.Workspace(t)
	file := filepath.Join(root, ".lumenflow/memory/memory.jsonl")
	nativetest.Write(t, root, ".lumenflow/memory/memory.jsonl", summarizeNodes)

	data := nativetest.Data(t, nativetest.Call(t, root, "mem:summarize", `{"wu":"WU-1","dry_run":true}`))
	assert.Equal(t, true, data["dry_run"])
	after, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, summarizeNodes, string(after), "dry_run writes nothing")

	data = nativetest.Data(t, nativetest.Call(t, root, "mem:summarize", `{"wu":"WU-1"}`))
	summary := data["summary"].(map[string]any)
	assert.Equal(t, "# Summary for WU-1\nAggregated from 3 node(s)\n## Discovery(s)\n- DB is slow\n"+
		"## Checkpoint(s)\n- "+strings.Repeat("c", 197)+"...\n## Note(s)\n- Keep the API small", summary["content"])
	assert.Equal(t, "project", summary["lifecycle"])
	assert.Equal(t, []any{"mem-0001", "mem-0002"}, data["marked"], "the project note is a source, not marked")
	after, err = os.ReadFile(file)
	require.NoError(t, err)
	appended := strings.Split(strings.TrimPrefix(string(after), summarizeNodes), "\n")
	require.Len(t, appended, 4, "summary, two marked versions, final newline")
	assert.Contains(t, appended[1], `"summarized_into":"`+summary["id"].(string)+`"`)

	// A marked source is summarised once; a project source is never marked (spec), so a
	// second run aggregates it alone again.
	data = nativetest.Data(t, nativetest.Call(t, root, "mem:summarize", `{"wu":"WU-1"}`))
	assert.Equal(t, "# Summary for WU-1\nAggregated from 1 node(s)\n## Note(s)\n- Keep the API small",
		data["summary"].(map[string]any)["content"])
	assert.Equal(t, []any{}, data["marked"])
}

// TestSummarizeFailures: the schema refuses a missing, empty or malformed wu before the
// handler runs, in a workspace or not; a WU without sources is NOT_FOUND.
func TestSummarizeFailures(t *testing.T) {
	root := nativetest.Workspace(t)
	cases := []struct {
		dir string
		failure
	}{
		{root, failure{"missing wu", `{}`, tool.CodeInvalidInput, "/wu"}},
		{root, failure{"empty wu", `{"wu":""}`, tool.CodeInvalidInput, "/wu"}},
		{root, failure{"malformed wu", `{"wu":"WU-x"}`, tool.CodeInvalidInput, "/wu"}},
		{t.TempDir(), failure{"missing wu outside a workspace", `{}`, tool.CodeInvalidInput, "/wu"}},
		{root, failure{"no sources", `{"wu":"WU-9"}`, tool.CodeNotFound, ""}},
		{t.TempDir(), failure{"no workspace", `{"wu":"WU-1"}`, tool.CodeNoWorkspace, ""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assertFailure(t, tc.failure, nativetest.Call(t, tc.dir, "mem:summarize", tc.input))
		})
	}
}
