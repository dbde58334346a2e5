package memory_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// session is a current-session file naming WU-7.
const session = `{"session_id":"0b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d","wu_id":"WU-7","lane":"Core: API","started":"2026-03-01T09:00:00.000Z"}`

// failure is one input that must fail with code. An input the schema refuses fails with
// INVALID_INPUT and path, the JSON pointer of the place at fault ("/" for a rule between
// properties); path is "" for any other code.
type failure struct {
	name, input, code, path string
}

// assertFailures calls tool name with each failing input on a fresh workspace and checks
// the code, that nothing was written under .lumenflow and, for a refusal of the schema,
// the place it names, else that warnings are listed even on failure (the handler ran);
// then it checks that valid, a good input, is NO_WORKSPACE outside one.
func assertFailures(t *testing.T, name, valid string, cases []failure) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := nativetest.Workspace(t)
			out := nativetest.Call(t, root, name, tc.input)
			assertFailure(t, tc, out)
			assert.NoDirExists(t, filepath.Join(root, ".lumenflow"), "a failed call writes nothing")
		})
	}
	t.Run("no workspace", func(t *testing.T) {
		out := nativetest.Call(t, t.TempDir(), name, valid)
		assert.Equal(t, tool.CodeNoWorkspace, nativetest.Code(t, out))
	})
}

// assertFailure checks that out is tc's failure: its code, and the path a refusal of the
// schema names or the warnings a handler's failure lists.
func assertFailure(t *testing.T, tc failure, out tool.Output) {
	t.Helper()
	assert.Equal(t, tc.code, nativetest.Code(t, out))
	if tc.code == tool.CodeInvalidInput {
		details, _ := out.Error.Details.(map[string]any)
		assert.Equal(t, tc.path, details["path"], "the refusal names the place at fault: %s", out.Error.Message)
		return
	}
	assert.Contains(t, out.Metadata, "warnings")
}

// read returns a workspace file's content.
func read(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	require.NoError(t, err)
	return string(b)
}

// memoryNodes is a store for the read tools: WU-1 nodes with priorities, an ephemeral,
// an archived and a blocked one, a WU-2 node, two project nodes (one per lane scope), a
// malformed line and a later version of mem-0002.
const memoryNodes = `{"id":"mem-0001","type":"discovery","lifecycle":"wu","content":"late P1","created_at":"2026-03-01T08:00:00.000Z","wu_id":"WU-1","metadata":{"priority":"P1"}}
{"id":"mem-0002","type":"note","lifecycle":"session","content":"no priority\nsecond line","created_at":"2026-03-01T07:00:00.000Z","wu_id":"WU-1"}
{"id":"mem-0003","type":"discovery","lifecycle":"wu","content":"urgent","created_at":"2026-03-01T09:00:00.000Z","wu_id":"WU-1","metadata":{"priority":"P0"}}
{"id":"mem-0004","type":"note","lifecycle":"ephemeral","content":"ephemeral","created_at":"2026-03-01T07:00:00.000Z","wu_id":"WU-1"}
{"id":"mem-0005","type":"note","lifecycle":"session","content":"blocked by mem-0001","created_at":"2026-03-01T07:00:00.000Z","wu_id":"WU-1"}
{"id":"mem-0006","type":"note","lifecycle":"session","content":"archived","created_at":"2026-03-01T07:00:00.000Z","wu_id":"WU-1","metadata":{"status":"archived"}}
{"id":"mem-0007","type":"note","lifecycle":"session","content":"has blocked_by","created_at":"2026-03-01T07:00:00.000Z","wu_id":"WU-1","metadata":{"blocked_by":["mem-0003"]}}
{"id":"mem-0008","type":"note","lifecycle":"session","content":"other WU","created_at":"2026-03-01T07:00:00.000Z","wu_id":"WU-2"}
{"id":"mem-0009","type":"note","lifecycle":"project","content":"api lane","created_at":"2026-03-01T06:00:00.000Z","metadata":{"lane":"Core: API"}}
{"id":"mem-0010","type":"note","lifecycle":"project","content":"any lane","created_at":"2026-03-01T06:30:00.000Z"}
{not json
{"id":"mem-0002","type":"note","lifecycle":"session","content":"no priority v2","created_at":"2026-03-01T07:00:00.000Z","wu_id":"WU-1"}
`

// nodeIDs is the ids of a node list in data.
func nodeIDs(t *testing.T, nodes any) []string {
	t.Helper()
	var ids []string
	for _, n := range nodes.([]any) {
		ids = append(ids, n.(map[string]any)["id"].(string))
	}
	return ids
}
