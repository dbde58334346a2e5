// Scaffolded by `cmdbridge scaffold file:read`: the native tool's contract with its legacy command.

package files_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	_ "github.com/cmdbridge/cmdbridge/commands/files"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestReadSelectsAndEncodes(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "notes/three.txt", "one\ntwo\nthree\n")
	nativetest.Write(t, root, "notes/nonl.txt", "no final newline")
	bare := t.TempDir() // no workspace: paths are confined to the call's directory
	nativetest.Write(t, bare, "a.txt", "a\n")
	cases := []struct {
		name, dir, input string
		want             map[string]any
	}{
		{"whole file without final newline", root, `{"path":"notes/nonl.txt"}`, map[string]any{"path": "notes/nonl.txt",
			"encoding": "utf8", "content": "no final newline", "size": 16.0, "total_lines": 1.0, "start_line": 1.0, "end_line": 1.0}},
		{"range clipped to the last line", root, `{"path":"notes/three.txt","start_line":2,"end_line":9}`, map[string]any{
			"path": "notes/three.txt", "encoding": "utf8", "content": "two\nthree\n", "size": 14.0, "total_lines": 3.0,
			"start_line": 2.0, "end_line": 3.0}},
		{"base64", root, `{"path":"notes/three.txt","end_line":1,"encoding":"base64"}`, map[string]any{
			"path": "notes/three.txt", "encoding": "base64", "content": "b25lCg==", "size": 14.0, "total_lines": 3.0,
			"start_line": 1.0, "end_line": 1.0}},
		{"outside a workspace", bare, `{"path":"a.txt"}`, map[string]any{"path": "a.txt", "encoding": "utf8",
			"content": "a\n", "size": 2.0, "total_lines": 1.0, "start_line": 1.0, "end_line": 1.0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := call(t, tc.dir, "file:read", tc.input, nil)
			assert.Equal(t, tc.want, nativetest.Data(t, out))
			assert.Equal(t, []string{}, out.Metadata["warnings"])
		})
	}
}

func TestReadFailsWithTheCommandsCodes(t *testing.T) {
	root := nativetest.Workspace(t)
	nativetest.Write(t, root, "notes/three.txt", "one\ntwo\nthree\n")
	nativetest.Write(t, root, "bin.dat", "\xff\xfe")
	cases := []struct {
		name, input string
		code        string
		details     any
	}{
		{"absent path", `{}`, nativetest.InvalidAt("/path"), nil},
		{"start line 0", `{"path":"notes/three.txt","start_line":0}`, nativetest.InvalidAt("/start_line"), nil},
		{"end line 0 before a missing path", `{"end_line":0}`, nativetest.InvalidAt("/end_line"), nil},
		{"empty encoding", `{"path":"notes/three.txt","encoding":""}`, nativetest.InvalidAt("/encoding"), nil},
		{"start after end", `{"path":"notes/three.txt","start_line":3,"end_line":2}`, tool.CodeValidation, nil},
		{"missing file", `{"path":"notes/missing.txt"}`, tool.CodeNotFound, nil},
		{"directory", `{"path":"notes"}`, tool.CodeValidation, map[string]any{"errors": []string{"notes is a directory"}}},
		{"not UTF-8", `{"path":"bin.dat"}`, tool.CodeValidation, nil},
		{"too large", `{"path":"notes/three.txt","max_size":4}`, tool.CodeTooLarge,
			map[string]any{"size": int64(14), "max_size": 4}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := call(t, root, "file:read", tc.input, nil)
			assert.Equal(t, tc.code, nativetest.Outcome(t, out))
			if tc.details != nil {
				assert.Equal(t, tc.details, out.Error.Details)
			}
		})
	}
	out := call(t, root, "file:read", `{"path":"../outside.txt"}`, nil)
	assert.False(t, out.Success, "a path escaping the workspace is refused")
}
