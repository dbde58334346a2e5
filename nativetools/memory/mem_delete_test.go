// Scaffolded by `cmdbridge scaffold mem:delete`: the native tool's contract with its legacy command.

package memory_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// deleteNodes: one node per selector, a kept one, one already deleted.
const deleteNodes = `{"id":"mem-0001","type":"note","lifecycle":"session","content":"by id","created_at":"2026-03-02T18:00:00.000Z"}
{"id":"mem-0002","type":"note","lifecycle":"session","content":"tagged old","created_at":"2026-03-02T18:00:00.000Z","tags":["old"]}
{"id":"mem-0003","type":"note","lifecycle":"session","content":"ancient","created_at":"2026-01-01T09:00:00.000Z"}
{"id":"mem-0004","type":"note","lifecycle":"session","content":"kept","created_at":"2026-03-02T18:00:00.000Z","tags":["keep"]}
{"id":"mem-0005","type":"note","lifecycle":"session","content":"gone","created_at":"2026-03-02T18:00:00.000Z","tags":["old"],"metadata":{"status":"deleted"}}
`

// TestDeleteSoftDeletesTheUnion: the selectors combine as a union, each selected node gets
// an appended deleted version, already-deleted ones are skipped; dry_run writes nothing;
// an unknown id fails the whole call.
func TestDeleteSoftDeletesTheUnion(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, ".lumenflow/memory/memory.jsonl", deleteNodes)

	data := nativetest.Data(t, nativetest.Call(t, root, "mem:delete", `{"tag":"keep","dry_run":true}`))
	assert.Equal(t, map[string]any{"deleted": []any{"mem-0004"}, "skipped": []any{}, "dry_run": true}, data)
	assert.Equal(t, deleteNodes, read(t, root, ".lumenflow/memory/memory.jsonl"))

	out := nativetest.Call(t, root, "mem:delete", `{"id":["mem-0001","mem-ffff"]}`)
	assert.Equal(t, tool.CodeNotFound, nativetest.Code(t, out))
	assert.Equal(t, deleteNodes, read(t, root, ".lumenflow/memory/memory.jsonl"))

	data = nativetest.Data(t, nativetest.Call(t, root, "mem:delete", `{"id":["mem-0001"],"tag":"old","older_than":"1d"}`))
	assert.Equal(t, map[string]any{"deleted": []any{"mem-0001", "mem-0002", "mem-0003"}, "skipped": []any{"mem-0005"}, "dry_run": false}, data)
	appended := strings.TrimPrefix(read(t, root, ".lumenflow/memory/memory.jsonl"), deleteNodes)
	assert.Equal(t, `{"id":"mem-0001","type":"note","lifecycle":"session","content":"by id","created_at":"2026-03-02T18:00:00.000Z","updated_at":"2026-03-02T18:37:08.384Z","metadata":{"status":"deleted","deleted_at":"2026-03-02T18:37:08.384Z"}}`,
		strings.Split(appended, "\n")[0])
	assert.Len(t, strings.Split(strings.TrimSuffix(appended, "\n"), "\n"), 3)

	data = nativetest.Data(t, nativetest.Call(t, root, "mem:delete", `{"tag":""}`))
	assert.Equal(t, []any{}, data["deleted"], "an empty tag is a selector that selects nothing")
}

// TestDeleteFailures: the schema refuses no selector, a malformed duration ("" included)
// and a malformed id before the handler runs; a duration too long for a time.Duration
// (which a pattern cannot bound) is USAGE, as the command's flag says; none writes
// anything.
func TestDeleteFailures(t *testing.T) {
	assertFailures(t, "mem:delete", `{"tag":"x"}`, []failure{
		{"no selector", `{}`, tool.CodeInvalidInput, "/"},
		{"only dry_run", `{"dry_run":true}`, tool.CodeInvalidInput, "/"},
		{"empty id list", `{"id":[]}`, tool.CodeInvalidInput, "/"},
		{"malformed duration", `{"older_than":"soon"}`, tool.CodeInvalidInput, "/older_than"},
		{"empty duration", `{"older_than":""}`, tool.CodeInvalidInput, "/older_than"},
		{"overflowing duration", `{"older_than":"99999999999999999999d"}`, tool.CodeUsage, ""},
		{"malformed id", `{"id":["mem-0001","nope"]}`, tool.CodeInvalidInput, "/id/1"},
		{"unknown id", `{"id":["mem-ffff"]}`, tool.CodeNotFound, ""},
	})
}
