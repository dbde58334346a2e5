package cli_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A --workspace that does not exist, or is a file, is refused by every subcommand that
// opens the kernel, before anything (keys, evidence, config) is created under it.
func TestMissingWorkspaceIsAnErrorAndCreatesNothing(t *testing.T) {
	parent := t.TempDir()
	file := filepath.Join(parent, "plain.txt")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	cases := []struct {
		name string
		ws   string
		args []string
		want string
	}{
		{"mcp, missing", filepath.Join(parent, "nonexistent"), []string{"mcp"}, "does not exist"},
		{"call, missing", filepath.Join(parent, "nonexistent"), []string{"call", "--input", `{"path":"a.txt"}`, "doc:read"}, "does not exist"},
		{"tools list, missing", filepath.Join(parent, "nonexistent"), []string{"tools", "list"}, "does not exist"},
		{"serve, missing", filepath.Join(parent, "nonexistent"), []string{"serve", "--addr", "127.0.0.1:0"}, "does not exist"},
		{"mcp, a file", file, []string{"mcp"}, "is not a directory"},
		{"serve, a file", file, []string{"serve", "--addr", "127.0.0.1:0"}, "is not a directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errText, code := run(t, tc.ws, tc.args...)
			assert.Equal(t, 1, code, "stdout %q stderr %q", out, errText)
			assert.Contains(t, errText, tc.want)
			_, err := os.Stat(filepath.Join(parent, "nonexistent"))
			assert.ErrorIs(t, err, os.ErrNotExist, "nothing was created")
			entries, err := os.ReadDir(parent)
			require.NoError(t, err)
			assert.Len(t, entries, 1, "only the plain file is in the parent")
		})
	}
}
