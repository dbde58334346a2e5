package journal

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/gittest"
)

// repo makes a git repository with one commit of file a ("1") and returns its root.
func repo(t testing.TB) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(root, "a"), []byte("1"), 0o644))
	runGit(t, root, "init", "-q", "-b", "main")
	runGit(t, root, "add", "a")
	runGit(t, root, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "init")
	return root
}

func runGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return strings.TrimSpace(gittest.Run(t, dir, args...))
}

func content(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return "<absent>"
	}
	require.NoError(t, err)
	return string(b)
}

// dies leaves the journal as a killed holder would: on disk, lock released.
func dies(h *Held) { h.Release() }

// TestRecoverRestoresWhatADeadCallWrote: a holder that journaled a rewrite, a new file
// in a new directory, an append and a git add, then died, is undone by the next Recover:
// contents, absence, size and index as before, the journal gone.
func TestRecoverRestoresWhatADeadCallWrote(t *testing.T) {
	root := repo(t)
	a, log, dir := filepath.Join(root, "a"), filepath.Join(root, "log.jsonl"), filepath.Join(root, "d")
	require.NoError(t, os.WriteFile(log, []byte("{}\n"), 0o644))
	runGit(t, root, "add", "log.jsonl")
	runGit(t, root, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "log")

	h, err := Lock(context.Background(), root, nil)
	require.NoError(t, err)
	require.NoError(t, h.Append(Record{Op: OpFile, Path: a, Data: []byte("1"), Mode: 0o644}))
	require.NoError(t, os.WriteFile(a, []byte("2"), 0o644))
	require.NoError(t, h.Append(Record{Op: OpAbsent, Path: dir, Dir: true}, Record{Op: OpAbsent, Path: filepath.Join(dir, "new")}))
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "new"), []byte("x"), 0o644))
	require.NoError(t, h.Append(Record{Op: OpSize, Path: log, Size: 3, Mode: 0o644}))
	require.NoError(t, os.WriteFile(log, []byte("{}\n{\"b\":1}\n"), 0o644))
	require.NoError(t, h.Append(Record{Op: OpStaged, Paths: []string{"a", "d/new", "log.jsonl"}}))
	runGit(t, root, "add", "-A", "--", "a", "d/new", "log.jsonl")
	dies(h)
	require.FileExists(t, filepath.Join(root, ".git", FileName))

	r, err := Recover(context.Background(), root, nil)
	require.NoError(t, err)
	assert.True(t, r.Found)
	assert.False(t, r.Committed)
	assert.Equal(t, "1", content(t, a))
	assert.NoDirExists(t, dir)
	assert.Equal(t, "{}\n", content(t, log))
	assert.Equal(t, "", runGit(t, root, "status", "--porcelain", "--untracked-files=all"))
	assert.NoFileExists(t, filepath.Join(root, ".git", FileName))

	r, err = Recover(context.Background(), root, nil)
	require.NoError(t, err)
	assert.False(t, r.Found, "a second recovery finds nothing")
}

// TestRecoverKeepsALandedCommit: a holder killed after its commit landed (the commit step
// journaled, HEAD moved) leaves committed state, which the replay keeps; killed before
// the commit ran (HEAD where it was) it is rolled back; HEAD moved by someone else
// without the commit step is rolled back too (the call never committed).
func TestRecoverKeepsALandedCommit(t *testing.T) {
	for _, tc := range []struct {
		name       string
		commitStep bool
		commit     bool
		want       string
	}{
		{"commit landed", true, true, "2"},
		{"commit step, no commit", true, false, "1"},
		{"HEAD moved by another, no commit step", false, true, "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := repo(t)
			a := filepath.Join(root, "a")
			h, err := Lock(context.Background(), root, nil)
			require.NoError(t, err)
			require.NoError(t, h.Append(Record{Op: OpFile, Path: a, Data: []byte("1"), Mode: 0o644}))
			require.NoError(t, os.WriteFile(a, []byte("2"), 0o644))
			if tc.commitStep {
				require.NoError(t, h.Append(Record{Op: OpCommit}))
			}
			if tc.commit {
				runGit(t, root, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "moved")
			}
			dies(h)
			r, err := Recover(context.Background(), root, nil)
			require.NoError(t, err)
			assert.Equal(t, tc.commitStep && tc.commit, r.Committed)
			assert.Equal(t, tc.want, content(t, a))
		})
	}
}

// TestTornRecordIsIgnored: a record cut short by a crash, and anything after it, is not
// replayed: the write it was to protect had not begun.
func TestTornRecordIsIgnored(t *testing.T) {
	root := repo(t)
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	require.NoError(t, os.WriteFile(b, []byte("b now"), 0o644))
	h, err := Lock(context.Background(), root, nil)
	require.NoError(t, err)
	require.NoError(t, h.Append(Record{Op: OpFile, Path: a, Data: []byte("1"), Mode: 0o644}))
	require.NoError(t, os.WriteFile(a, []byte("2"), 0o644))
	dies(h)
	f, err := os.OpenFile(filepath.Join(root, ".git", FileName), os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"op":"absent","path":"` + b + `"`) // torn: no closing brace, no newline
	require.NoError(t, err)
	require.NoError(t, f.Close())

	_, err = Recover(context.Background(), root, nil)
	require.NoError(t, err)
	assert.Equal(t, "1", content(t, a))
	assert.Equal(t, "b now", content(t, b), "the torn record restored nothing")
}

// TestLockTakesNoFile: taking and releasing the lock of a call that writes nothing
// leaves the git directory as it was (read-only calls take it too).
func TestLockTakesNoFile(t *testing.T) {
	root := repo(t)
	before, err := os.ReadDir(filepath.Join(root, ".git"))
	require.NoError(t, err)
	h, err := Lock(context.Background(), root, nil)
	require.NoError(t, err)
	require.NoError(t, h.Close())
	after, err := os.ReadDir(filepath.Join(root, ".git"))
	require.NoError(t, err)
	assert.Equal(t, len(before), len(after))
}

// TestRecoverOutsideARepository: a workspace that is no repository keeps its journal
// under .cmdbridge; a missing workspace has nothing to recover.
func TestRecoverOutsideARepository(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "f")
	h, err := Lock(context.Background(), root, nil)
	require.NoError(t, err)
	require.NoError(t, h.Append(Record{Op: OpAbsent, Path: p}))
	require.NoError(t, os.WriteFile(p, nil, 0o644))
	dies(h)
	require.FileExists(t, filepath.Join(root, ".cmdbridge", "journal"))
	_, err = Recover(context.Background(), root, nil)
	require.NoError(t, err)
	assert.NoFileExists(t, p)

	r, err := Recover(context.Background(), filepath.Join(root, "missing"), nil)
	require.NoError(t, err)
	assert.False(t, r.Found)
}
