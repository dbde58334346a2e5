package ops

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestFileRead(t *testing.T) {
	f := newFixture(t)
	f.write("notes.txt", "one\ntwo\nthree")
	f.write("bin.dat", "\xff\xfe\n")
	f.write("docs/x", "")
	env := tool.EnvFromMap(nil)
	cases := []struct {
		name string
		in   FileReadInput
		want FileReadData
		code string
	}{
		{"whole file", FileReadInput{Path: "notes.txt"},
			FileReadData{Path: "notes.txt", Encoding: "utf8", Content: "one\ntwo\nthree", Size: 13, TotalLines: 3, StartLine: 1, EndLine: 3}, ""},
		{"range clipped to the end", FileReadInput{Path: "notes.txt", StartLine: intPtr(2), EndLine: intPtr(9)},
			FileReadData{Path: "notes.txt", Encoding: "utf8", Content: "two\nthree", Size: 13, TotalLines: 3, StartLine: 2, EndLine: 3}, ""},
		{"base64", FileReadInput{Path: "bin.dat", Encoding: "base64", JSON: true},
			FileReadData{Path: "bin.dat", Encoding: "base64", Content: "//4K", Size: 3, TotalLines: 1, StartLine: 1, EndLine: 1}, ""},
		{"invalid utf-8 in text mode", FileReadInput{Path: "bin.dat"},
			FileReadData{Path: "bin.dat", Encoding: "utf8", Content: "\xff\xfe\n", Size: 3, TotalLines: 1, StartLine: 1, EndLine: 1}, ""},
		{"invalid utf-8 as JSON", FileReadInput{Path: "bin.dat", JSON: true}, FileReadData{}, tool.CodeValidation},
		{"start after end", FileReadInput{Path: "notes.txt", StartLine: intPtr(3), EndLine: intPtr(2)}, FileReadData{}, tool.CodeValidation},
		{"missing", FileReadInput{Path: "gone.txt"}, FileReadData{}, tool.CodeNotFound},
		{"directory", FileReadInput{Path: "docs"}, FileReadData{}, tool.CodeValidation},
		{"too large", FileReadInput{Path: "notes.txt", MaxSize: intPtr(4)}, FileReadData{}, tool.CodeTooLarge},
		{"outside the workspace", FileReadInput{Path: "../x"}, FileReadData{}, tool.CodePathOutsideWorkspace},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, notes, err := FileRead(t.Context(), f.dir, env, tc.in)
			if tc.code != "" {
				requireCode(t, tc.code, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, data)
			assert.Equal(t, data.Content, notes.Text)
		})
	}
	_, _, err := FileRead(t.Context(), f.dir, env, FileReadInput{Path: "notes.txt", MaxSize: intPtr(4)})
	assert.Equal(t, map[string]any{"size": int64(13), "max_size": 4}, delivery.AsError(err).Details)
}

// TestFileReadSymlinkSwappedAfterCheck swaps a checked directory for a symlink leading
// out of the workspace between the confinement check and the read: the read goes through
// an os.Root, which refuses to follow it (PATH_OUTSIDE_WORKSPACE), where opening the
// checked absolute path would have read the outside file.
func TestFileReadSymlinkSwappedAfterCheck(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "docs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "docs", "a.txt"), []byte("inside\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "a.txt"), []byte("secret\n"), 0o644))
	var checked string
	afterConfine = func(abs string) {
		checked = abs
		require.NoError(t, os.Rename(filepath.Join(ws, "docs"), filepath.Join(ws, "docs.old")))
		require.NoError(t, os.Symlink(outside, filepath.Join(ws, "docs")))
	}
	t.Cleanup(func() { afterConfine = func(string) {} })
	noEnv := func(string) (string, bool) { return "", false }
	data, _, err := FileRead(context.Background(), ws, noEnv, FileReadInput{Path: "docs/a.txt"})
	require.Error(t, err)
	assert.Equal(t, tool.CodePathOutsideWorkspace, delivery.CodeOf(err), "%v", err)
	assert.Empty(t, data.Content)
	leaked, err := os.ReadFile(checked)
	require.NoError(t, err)
	assert.Equal(t, "secret\n", string(leaked), "the checked path now leads outside: the gap was real")
}
