package kernel

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestURLInputsNameTheirFiles: a URL input's file:, sqlite: and sqlite3: URLs name their
// path (query left out, escapes undone, a host part kept as written so it is refused
// unless in scope); any other value is held to the scopes as written (a network URL is
// a relative name, inside the workspace).
func TestURLInputsNameTheirFiles(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want []string
	}{
		{"file:app.db", []string{"app.db"}},
		{"file:../../etc/app.db?mode=ro", []string{"../../etc/app.db"}},
		{"FILE:///var/lib/app.db", []string{"/var/lib/app.db"}},
		{"file://localhost/var/lib/app.db", []string{"/var/lib/app.db"}},
		{"sqlite:///srv/app.db", []string{"/srv/app.db"}},
		{"sqlite3:data%20dir/app.db", []string{"data dir/app.db"}},
		{"sqlite://app.db", []string{"//app.db"}},
		{"postgres://db.example:5432/app", []string{"postgres://db.example:5432/app"}},
		{"c:../../etc/passwd", []string{"c:../../etc/passwd"}},
		{"app.db", []string{"app.db"}},
		{"/abs/app.db", []string{"/abs/app.db"}},
		{"%zz", []string{"%zz"}},
		{[]any{"file:a.db", "https://example.org/x", "b.db"}, []string{"a.db", "https://example.org/x", "b.db"}},
	} {
		var got []string
		for _, pv := range pathValues(tc.in, true) {
			got = append(got, pv.path)
		}
		assert.Equal(t, tc.want, got, "%v", tc.in)
	}
	assert.Equal(t, []pathValue{{"file:app.db", "file:app.db"}}, pathValues("file:app.db", false), "a plain path input takes the value as it is")
	assert.Equal(t, []pathValue{{"file:../x.db", "../x.db"}}, pathValues("file:../x.db", true), "a URL keeps the value given, for the refusal")
}

// TestResolvePathOfARelativeBase: a relative base is taken from the working directory,
// never walked from the root (where "." would name the root itself).
func TestResolvePathOfARelativeBase(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	t.Chdir(dir)
	require.NoError(t, os.Mkdir("ws", 0o755))
	assert.Equal(t, filepath.Join(dir, "ws"), resolvePath("ws", "."))
	assert.Equal(t, filepath.Join(dir, "ws", "a", "b"), resolvePath("ws", "a/b"))
}
