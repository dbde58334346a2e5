// Scaffolded by `cmdbridge scaffold mem:triage`: the native tool's contract with its legacy command.

package memory_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// triageNodes: three open discoveries (one with a priority), a note and a closed discovery.
const triageNodes = `{"id":"mem-0001","type":"discovery","lifecycle":"wu","content":"The health handler must not hit the DB. It times out under load!","created_at":"2026-03-01T08:00:00.000Z","wu_id":"WU-1","metadata":{"priority":"P1"}}
{"id":"mem-0002","type":"discovery","lifecycle":"wu","content":"Cache build info","created_at":"2026-03-01T08:10:00.000Z","wu_id":"WU-7"}
{"id":"mem-0003","type":"discovery","lifecycle":"wu","content":"Flaky test?","created_at":"2026-03-01T08:20:00.000Z","wu_id":"WU-7"}
{"id":"mem-0005","type":"note","lifecycle":"session","content":"a note","created_at":"2026-03-01T08:00:00.000Z","wu_id":"WU-1"}
{"id":"mem-0006","type":"discovery","lifecycle":"wu","content":"closed one","created_at":"2026-03-01T08:00:00.000Z","metadata":{"status":"closed"}}
`

// TestTriageListsOpenDiscoveries: every open discovery, or the WU's (given, else the
// session's); the list writes nothing.
func TestTriageListsOpenDiscoveries(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, ".lumenflow/memory/memory.jsonl", triageNodes)
	data := nativetest.Data(t, nativetest.Call(t, root, "mem:triage", `{}`))
	assert.Equal(t, []string{"mem-0001", "mem-0002", "mem-0003"}, nodeIDs(t, data["nodes"]))
	data = nativetest.Data(t, nativetest.Call(t, root, "mem:triage", `{"wu":"WU-1"}`))
	assert.Equal(t, []string{"mem-0001"}, nodeIDs(t, data["nodes"]))
	nativetest.Write(t, root, ".lumenflow/sessions/current.json", session)
	data = nativetest.Data(t, nativetest.Call(t, root, "mem:triage", `{}`))
	assert.Equal(t, []string{"mem-0002", "mem-0003"}, nodeIDs(t, data["nodes"]), "the session's WU-7")
	data = nativetest.Data(t, nativetest.Call(t, root, "mem:triage", `{"wu":"WU-9"}`))
	assert.Equal(t, []any{}, data["nodes"])
	assert.Equal(t, triageNodes, read(t, root, ".lumenflow/memory/memory.jsonl"))
}

// TestTriagePromotesAndArchives: promote writes the bug WU (first sentence as title, the
// node's priority), its create event and one commit, then closes the node; archive
// appends an archived version; neither node is open afterwards.
func TestTriagePromotesAndArchives(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, ".lumenflow/memory/memory.jsonl", triageNodes)
	data := nativetest.Data(t, nativetest.Call(t, root, "mem:triage", `{"promote":"mem-0001","lane":"Core: API"}`))
	assert.Equal(t, "WU-1", data["wu_id"], "the first free id")
	assert.Equal(t, "docs/tasks/wu/WU-1.yaml", data["path"])
	commit := data["commit"].(map[string]any)
	assert.Equal(t, "docs: create wu-1 for The health handler must not hit the DB", commit["subject"])
	assert.Equal(t, commit["sha"], nativetest.Git(t, root, "rev-parse", "HEAD"))
	assert.Equal(t, ".lumenflow/state/wu-events.jsonl\ndocs/tasks/wu/WU-1.yaml", nativetest.Git(t, root, "show", "--name-only", "--format=", "HEAD"))
	wu := read(t, root, "docs/tasks/wu/WU-1.yaml")
	assert.Contains(t, wu, "title: The health handler must not hit the DB\n")
	assert.Contains(t, wu, "type: bug\n")
	assert.Contains(t, wu, "priority: P1\n")
	assert.Contains(t, wu, "notes: Promoted from discovery mem-0001\n")
	assert.Equal(t, `{"type":"create","wuId":"WU-1","timestamp":"2026-03-02T18:37:08.384Z","lane":"Core: API","title":"The health handler must not hit the DB"}`+"\n",
		read(t, root, ".lumenflow/state/wu-events.jsonl"))

	data = nativetest.Data(t, nativetest.Call(t, root, "mem:triage", `{"archive":"mem-0003","reason":"not reproducible"}`))
	assert.Equal(t, map[string]any{"node_id": "mem-0003", "archived": true}, data)
	appended := strings.Split(strings.TrimSuffix(strings.TrimPrefix(read(t, root, ".lumenflow/memory/memory.jsonl"), triageNodes), "\n"), "\n")
	require.Len(t, appended, 2)
	assert.Contains(t, appended[0], `"metadata":{"priority":"P1","status":"closed","promoted_to":"WU-1"}`)
	assert.Contains(t, appended[1], `"metadata":{"status":"archived","archived_reason":"not reproducible"}`)

	data = nativetest.Data(t, nativetest.Call(t, root, "mem:triage", `{}`))
	assert.Equal(t, []string{"mem-0002"}, nodeIDs(t, data["nodes"]))
	for _, again := range []string{`{"promote":"mem-0001","lane":"Core: API"}`, `{"archive":"mem-0003","reason":"x"}`} {
		assert.Equal(t, tool.CodeValidation, nativetest.Code(t, nativetest.Call(t, root, "mem:triage", again)), again)
	}
}

// TestTriageFailures: the schema refuses malformed ids and broken rules before the handler
// runs; a missing, deleted or non-discovery node, a closed one and an unknown lane change
// nothing.
func TestTriageFailures(t *testing.T) {
	assertFailures(t, "mem:triage", `{}`, []failure{
		{"malformed wu", `{"wu":"wu-1"}`, tool.CodeInvalidInput, "/wu"},
		{"empty promote", `{"promote":"","lane":"Core: API"}`, tool.CodeInvalidInput, "/promote"},
		{"malformed archive", `{"archive":"mem-1","reason":"x"}`, tool.CodeInvalidInput, "/archive"},
		{"promote and archive", `{"promote":"mem-0001","archive":"mem-0001","lane":"x","reason":"y"}`, tool.CodeInvalidInput, "/"},
		{"promote without lane", `{"promote":"mem-0001"}`, tool.CodeInvalidInput, "/"},
		{"archive without reason", `{"archive":"mem-0001"}`, tool.CodeInvalidInput, "/"},
		{"promote a missing node", `{"promote":"mem-0001","lane":"Core: API"}`, tool.CodeNotFound, ""},
		{"archive a missing node", `{"archive":"mem-0001","reason":"x"}`, tool.CodeNotFound, ""},
	})
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, ".lumenflow/memory/memory.jsonl", triageNodes)
	head := nativetest.Git(t, root, "rev-parse", "HEAD")
	for _, tc := range []failure{
		{"not a discovery", `{"archive":"mem-0005","reason":"x"}`, tool.CodeValidation, ""},
		{"already closed", `{"promote":"mem-0006","lane":"Core: API"}`, tool.CodeValidation, ""},
		{"unknown lane", `{"promote":"mem-0001","lane":"Nope"}`, tool.CodeValidation, ""},
		{"empty lane", `{"promote":"mem-0001","lane":""}`, tool.CodeValidation, ""},
	} {
		assert.Equal(t, tc.code, nativetest.Code(t, nativetest.Call(t, root, "mem:triage", tc.input)), tc.name)
	}
	assert.Equal(t, triageNodes, read(t, root, ".lumenflow/memory/memory.jsonl"))
	assert.NoDirExists(t, filepath.Join(root, "docs"))
	assert.NoFileExists(t, filepath.Join(root, ".lumenflow/state/wu-events.jsonl"))
	assert.Equal(t, head, nativetest.Git(t, root, "rev-parse", "HEAD"))
}
