package filesig_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/filesig"
)

func TestSignatureFollowsChanges(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(p, []byte("one"), 0o644))
	stat := func() filesig.Sig {
		fi, err := os.Stat(p)
		require.NoError(t, err)
		return filesig.Of(fi)
	}
	a := stat()
	assert.True(t, a.Equal(stat()), "nothing changed")
	require.NoError(t, os.WriteFile(p, []byte("two!"), 0o644))
	b := stat()
	assert.False(t, a.Equal(b), "size and times moved")
	if runtime.GOOS == "linux" {
		assert.True(t, a.SameIdentity(b), "rewritten in place: the same file")
		q := filepath.Join(dir, "g")
		require.NoError(t, os.WriteFile(q, []byte("two!"), 0o644))
		require.NoError(t, os.Rename(q, p))
		assert.False(t, b.SameIdentity(stat()), "replaced by another file")
	}
}

func TestSettled(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	w := 50 * time.Millisecond
	for _, tc := range []struct {
		name         string
		mtime, ctime time.Time
		want         bool
	}{
		{"both old", t0.Add(-time.Second), t0.Add(-time.Second), true},
		{"mtime in the window", t0.Add(-w / 2), t0.Add(-time.Second), false},
		{"ctime in the window", t0.Add(-time.Second), t0.Add(-w / 2), false},
		{"no ctime: mtime alone", t0.Add(-time.Second), time.Time{}, true},
	} {
		assert.Equal(t, tc.want, filesig.Sig{Mtime: tc.mtime, Ctime: tc.ctime}.Settled(t0, w), tc.name)
	}
}
