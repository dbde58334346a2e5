// Scaffolded by `cmdbridge scaffold file:delete`: the native tool's contract with its legacy command.

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

// TestDeleteRemoves: a file, a directory with recursive, a missing path with force, a
// symlink itself (never its target), and a file outside any workspace.
func TestDeleteRemoves(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "notes/a.txt", "a\n")
	nativetest.Write(t, root, "notes/sub/b.txt", "b\n")
	outside := t.TempDir()
	nativetest.Write(t, outside, "keep.txt", "keep\n")
	require.NoError(t, os.Symlink(filepath.Join(outside, "keep.txt"), filepath.Join(root, "link")))
	bare := t.TempDir()
	nativetest.Write(t, bare, "x.txt", "x\n")
	cases := []struct {
		name, dir, input, gone string
		want                   map[string]any
	}{
		{"a file", root, `{"path":"notes/a.txt"}`, "notes/a.txt",
			map[string]any{"path": "notes/a.txt", "deleted": true, "was_directory": false}},
		{"a directory", root, `{"path":"notes","recursive":true}`, "notes",
			map[string]any{"path": "notes", "deleted": true, "was_directory": true}},
		{"missing with force", root, `{"path":"notes","force":true}`, "notes",
			map[string]any{"path": "notes", "deleted": false, "was_directory": false}},
		{"a symlink", root, `{"path":"link"}`, "link",
			map[string]any{"path": "link", "deleted": true, "was_directory": false}},
		{"outside a workspace", bare, `{"path":"x.txt"}`, "x.txt",
			map[string]any{"path": "x.txt", "deleted": true, "was_directory": false}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := call(t, tc.dir, "file:delete", tc.input, nil)
			assert.Equal(t, tc.want, nativetest.Data(t, out))
			_, err := os.Lstat(filepath.Join(tc.dir, tc.gone))
			assert.True(t, os.IsNotExist(err), "%s is gone", tc.gone)
		})
	}
	assert.FileExists(t, filepath.Join(outside, "keep.txt"), "a symlink's target is never deleted")
}

// TestDeleteFailsWithTheCommandsCodes: the kernel's schema refuses a missing path
// (INVALID_INPUT), then the path rules apply; nothing is deleted.
func TestDeleteFailsWithTheCommandsCodes(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "notes/a.txt", "a\n")
	outside := t.TempDir()
	nativetest.Write(t, outside, "keep.txt", "keep\n")
	cases := []struct {
		name, input, code string
	}{
		{"absent path", `{"recursive":true}`, nativetest.InvalidAt("/path")},
		{"a directory without recursive", `{"path":"notes"}`, tool.CodeValidation},
		{"the root", `{"path":".","recursive":true}`, tool.CodeValidation},
		{"the root as empty is refused by the schema", `{"path":"","recursive":true}`, nativetest.InvalidAt("/path")},
		{"missing", `{"path":"nope.txt"}`, tool.CodeNotFound},
		{".git", `{"path":".git","recursive":true}`, tool.CodePathOutsideWorkspace},
		{"outside", `{"path":"` + filepath.Join(outside, "keep.txt") + `"}`, tool.CodePathOutsideWorkspace},
		{"up", `{"path":"../x"}`, tool.CodePathOutsideWorkspace},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := call(t, root, "file:delete", tc.input, nil)
			assert.Equal(t, tc.code, nativetest.Outcome(t, out))
			if out.Error.Code != tool.CodeInvalidInput { // a refusal comes before the handler
				assert.Contains(t, out.Metadata, "warnings")
			}
		})
	}
	assert.FileExists(t, filepath.Join(root, "notes", "a.txt"))
	assert.FileExists(t, filepath.Join(root, ".git", "HEAD"))
	assert.FileExists(t, filepath.Join(outside, "keep.txt"))
}
