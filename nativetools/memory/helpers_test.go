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

// failure is one input that must fail with code.
type failure struct {
	name, input, code string
}

// assertFailures calls tool name with each failing input on a fresh workspace and checks
// the code, that nothing was written under .lumenflow and that warnings are listed even
// on failure; then it checks that valid, a good input, is NO_WORKSPACE outside one.
func assertFailures(t *testing.T, name, valid string, cases []failure) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := nativetest.Workspace(t)
			out := nativetest.Call(t, root, name, tc.input)
			assert.Equal(t, tc.code, nativetest.Code(t, out))
			assert.Contains(t, out.Metadata, "warnings")
			assert.NoDirExists(t, filepath.Join(root, ".lumenflow"), "a failed call writes nothing")
		})
	}
	t.Run("no workspace", func(t *testing.T) {
		out := nativetest.Call(t, t.TempDir(), name, valid)
		assert.Equal(t, tool.CodeNoWorkspace, nativetest.Code(t, out))
	})
}

// read returns a workspace file's content.
func read(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	require.NoError(t, err)
	return string(b)
}
