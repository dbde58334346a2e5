// Scaffolded by `cmdbridge scaffold file:write`: the native tool's contract with its legacy command.

package files_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/cmdbridge/cmdbridge/commands/files"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestWriteWritesExactBytes: new files (parents created, 0644), an overwrite keeping
// the mode, empty content, base64, and a call outside any workspace.
func TestWriteWritesExactBytes(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "existing.txt", "old\n")
	require.NoError(t, os.Chmod(filepath.Join(root, "existing.txt"), 0o600))
	bare := t.TempDir()
	cases := []struct {
		name, dir, input, file, content string
		want                            map[string]any
		mode                            os.FileMode
	}{
		{"new file, parents created", root, `{"path":"a/b/new.txt","content":"hello"}`, "a/b/new.txt", "hello",
			map[string]any{"path": "a/b/new.txt", "bytes": 5.0, "created": true}, 0o644},
		{"overwrite keeps the mode", root, `{"path":"existing.txt","content":"x"}`, "existing.txt", "x",
			map[string]any{"path": "existing.txt", "bytes": 1.0, "created": false}, 0o600},
		{"empty content", root, `{"path":"existing.txt","content":""}`, "existing.txt", "",
			map[string]any{"path": "existing.txt", "bytes": 0.0, "created": false}, 0o600},
		{"base64", root, `{"path":"b64.bin","content":"/w==","encoding":"base64"}`, "b64.bin", "\xff",
			map[string]any{"path": "b64.bin", "bytes": 1.0, "created": true}, 0o644},
		{"outside a workspace", bare, `{"path":"a.txt","content":"a"}`, "a.txt", "a",
			map[string]any{"path": "a.txt", "bytes": 1.0, "created": true}, 0o644},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := call(t, tc.dir, "file:write", tc.input, nil)
			assert.Equal(t, tc.want, nativetest.Data(t, out))
			p := filepath.Join(tc.dir, tc.file)
			got, err := os.ReadFile(p)
			require.NoError(t, err)
			assert.Equal(t, tc.content, string(got))
			fi, err := os.Stat(p)
			require.NoError(t, err)
			assert.Equal(t, tc.mode, fi.Mode().Perm())
		})
	}
}

// TestWriteFailsWithTheCommandsCodes: the kernel's schema refuses a missing property or
// an encoding that is none first (INVALID_INPUT, naming the property), then invalid
// base64, then the path.
func TestWriteFailsWithTheCommandsCodes(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "dir/keep.txt", "k\n")
	cases := []struct {
		name, input, code string
	}{
		{"absent content", `{"path":"x"}`, nativetest.InvalidAt("/content")},
		{"absent path", `{"content":"x"}`, nativetest.InvalidAt("/path")},
		{"empty encoding", `{"path":"x","content":"x","encoding":""}`, nativetest.InvalidAt("/encoding")},
		{"bad encoding before a missing path", `{"encoding":"latin1"}`, nativetest.InvalidAt("/encoding")},
		{"invalid base64", `{"path":"../x","content":"%%%","encoding":"base64"}`, tool.CodeValidation},
		{"a directory", `{"path":"dir","content":"x"}`, tool.CodeValidation},
		{"the root", `{"path":".","content":"x"}`, tool.CodeValidation},
		{"the root as empty is refused by the schema", `{"path":"","content":"x"}`, nativetest.InvalidAt("/path")},
		{"no parent", `{"path":"missing/f.txt","content":"x","no_create_dirs":true}`, tool.CodeNotFound},
		{"outside", `{"path":"../escape.txt","content":"x"}`, tool.CodePathOutsideWorkspace},
		{"into .git", `{"path":".git/config","content":"x"}`, tool.CodePathOutsideWorkspace},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := call(t, root, "file:write", tc.input, nil)
			assert.Equal(t, tc.code, nativetest.Outcome(t, out))
			if out.Error.Code != tool.CodeInvalidInput { // a refusal comes before the handler
				assert.Contains(t, out.Metadata, "warnings")
			}
		})
	}
	assert.NoFileExists(t, filepath.Join(root, "x"))
	assert.NoDirExists(t, filepath.Join(root, "missing"))
	assert.NoFileExists(t, filepath.Join(filepath.Dir(root), "escape.txt"))
}
