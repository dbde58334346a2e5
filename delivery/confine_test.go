package delivery

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestConfine(t *testing.T) {
	root := realTemp(t)
	outside := realTemp(t)
	writeFile(t, filepath.Join(root, "docs", "a.md"), "x")
	require.NoError(t, os.Symlink(outside, filepath.Join(root, "escape")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "nothing-yet"), filepath.Join(root, "dangling")))
	require.NoError(t, os.Symlink(filepath.Join(root, "docs"), filepath.Join(root, "inner")))
	sub := filepath.Join(root, "docs")

	cases := []struct {
		name, cwd, path string
		write           bool
		wantRel         string
		wantCode        string
	}{
		{"relative to cwd", sub, "a.md", false, "docs/a.md", ""},
		{"missing file inside", root, "new/dir/file.txt", true, "new/dir/file.txt", ""},
		{"dotdot escape", sub, "../../x", false, "", tool.CodePathOutsideWorkspace},
		{"absolute outside", root, outside, false, "", tool.CodePathOutsideWorkspace},
		{"symlinked dir escapes", root, "escape/file", true, "", tool.CodePathOutsideWorkspace},
		{"dangling symlink escapes", root, "dangling", true, "", tool.CodePathOutsideWorkspace},
		{"symlink inside stays inside", root, "inner/a.md", false, "docs/a.md", ""},
		{"root itself", sub, "..", false, ".", ""},
		{".git read allowed", root, ".git/config", false, ".git/config", ""},
		{".git write refused", root, ".git/config", true, "", tool.CodePathOutsideWorkspace},
		{".git dir write refused", root, ".git", true, "", tool.CodePathOutsideWorkspace},
		{".gitignore write allowed", root, ".gitignore", true, ".gitignore", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			abs, rel, err := Confine(root, tc.cwd, tc.path, tc.write)
			if tc.wantCode != "" {
				require.Error(t, err)
				assert.Equal(t, tc.wantCode, CodeOf(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantRel, rel)
			assert.Equal(t, filepath.Join(root, filepath.FromSlash(tc.wantRel)), abs)
		})
	}
}

func TestWriteFileAtomicKeepsMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "f.sh")
	require.NoError(t, storage.WriteFileAtomic(p, []byte("one"), 0o644))
	fi, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm())

	require.NoError(t, os.Chmod(p, 0o755))
	require.NoError(t, storage.WriteFileAtomic(p, []byte("two"), 0o644))
	fi, err = os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), fi.Mode().Perm())
	got, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "two", string(got))
	entries, err := os.ReadDir(filepath.Dir(p))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temp file left behind")

	assert.Error(t, storage.WriteFileAtomic(dir, []byte("x"), 0o644), "a directory is not replaced")
}

func TestKebabBranchAndTitle(t *testing.T) {
	cases := map[string]string{"Framework: CLI WU Commands": "framework-cli-wu-commands", "Core: API": "core-api", "!!!": "lane", "  a__b  ": "a-b", "Ops/Infra 2": "ops-infra-2"}
	for in, want := range cases {
		assert.Equal(t, want, Kebab(in), in)
	}
	assert.Equal(t, "worktrees/core-api-wu-12", WorktreePath("worktrees/", "Core: API", "WU-12"))
	assert.Equal(t, "lane/core-api/wu-12", LaneBranch("lane/", "Core: API", "WU-12"))
	assert.Equal(t, ".lumenflow/locks/core-api.lock", LockRel("Core: API"))

	branches := []struct {
		branch, kebab, id string
		ok                bool
	}{
		{"lane/core-api/wu-12", "core-api", "WU-12", true},
		{"lane/core-api/wu-x", "", "", false},
		{"lane/Core/wu-1", "", "", false},
		{"main", "", "", false},
		{"lane/core-api/wu-", "", "", false},
		{"lane/a/b/wu-1", "", "", false},
	}
	for _, b := range branches {
		k, id, ok := ParseLaneBranch("lane/", b.branch)
		assert.Equal(t, b.ok, ok, b.branch)
		assert.Equal(t, b.kebab, k, b.branch)
		assert.Equal(t, b.id, id, b.branch)
	}
	assert.Equal(t, "short", Title60("short"))
	long := "ééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé" // 61 runes
	assert.Equal(t, 60, len([]rune(Title60(long))))
	assert.Equal(t, "...", string([]rune(Title60(long))[57:]))
}
