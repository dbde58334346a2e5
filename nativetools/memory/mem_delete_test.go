// Scaffolded by `cmdbridge scaffold mem:delete`: the native tool's contract with its legacy command.

package memory_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/memory"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/nativetools/memory"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestDeleteSchemaEqualsAdapter: the native input schema is the adapter's, byte for byte.
func TestDeleteSchemaEqualsAdapter(t *testing.T) {
	c, ok := commands.Default.Lookup("mem:delete")
	require.True(t, ok, "legacy command not registered")
	want, err := adapter.Schema(c)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	nt, ok := nativetools.Default.Lookup("mem:delete")
	require.True(t, ok, "native tool not registered")
	gotJSON, err := json.Marshal(nt.Spec.InputSchema)
	require.NoError(t, err)
	assert.Equal(t, string(wantJSON), string(gotJSON))
}

// TestDeleteDecodesFullInput: every property decodes into DeleteInput and survives the round trip.
func TestDeleteDecodesFullInput(t *testing.T) {
	nt, ok := nativetools.Default.Lookup("mem:delete")
	require.True(t, ok, "native tool not registered")
	raw := []byte(`{"dry_run":true,"id":["x-id"],"older_than":"x-older_than","tag":"x-tag"}`)
	v, err := nt.Decode(raw)
	require.NoError(t, err)
	in, ok := v.(memory.DeleteInput)
	require.True(t, ok, "decoded %T", v)
	back, err := json.Marshal(in)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), string(back))
}

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

// TestDeleteFailures: no selector, a malformed id or duration are USAGE and write nothing.
func TestDeleteFailures(t *testing.T) {
	assertFailures(t, "mem:delete", `{"tag":"x"}`, []failure{
		{"no selector", `{}`, tool.CodeUsage},
		{"only dry_run", `{"dry_run":true}`, tool.CodeUsage},
		{"empty id list", `{"id":[]}`, tool.CodeUsage},
		{"malformed duration", `{"older_than":"soon"}`, tool.CodeUsage},
		{"empty duration", `{"older_than":""}`, tool.CodeUsage},
		{"malformed id", `{"id":["mem-0001","nope"]}`, tool.CodeUsage},
		{"unknown id", `{"id":["mem-ffff"]}`, tool.CodeNotFound},
	})
}
