package compare_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/parity/compare"
)

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

func TestCompareTrees(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	write(t, a, "same.txt", "x\n")
	write(t, b, "same.txt", "x\n")
	write(t, a, "gone.txt", "bye\n")
	write(t, b, "new/added.txt", "hi\n")
	write(t, a, "changed.txt", "one\ntwo\n")
	write(t, b, "changed.txt", "one\nthree\n")
	write(t, a, ".cmdbridge/parity/last.json", "{}")
	ta, err := compare.Snapshot(a)
	require.NoError(t, err)
	tb, err := compare.Snapshot(b)
	require.NoError(t, err)
	got := map[string]compare.Diff{}
	for _, d := range compare.CompareTrees(ta, tb) {
		got[d.Path] = d
	}
	assert.ElementsMatch(t, []string{"gone.txt", "new", "new/added.txt", "changed.txt"}, keys(got))
	assert.Equal(t, "(absent)", got["gone.txt"].Got)
	assert.Equal(t, "(absent)", got["new/added.txt"].Want)
	assert.Contains(t, got["changed.txt"].Unified, "-two\n+three\n")
	assert.Equal(t, []string{"M changed.txt", "D gone.txt", "A new", "A new/added.txt"}, compare.Changes(ta, tb))
}

func keys(m map[string]compare.Diff) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestSnapshotGitFacts(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.txt", "a\n")
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	tr, err := compare.Snapshot(dir)
	require.NoError(t, err)
	assert.Equal(t, "main\n", string(tr[".git:HEAD"].Content))
	assert.Equal(t, "commit first\n\nA\ta.txt\n", string(tr[".git:log"].Content))
	for p := range tr {
		assert.NotContains(t, p, ".git/", "raw git objects are never in a tree")
	}
}

// A file left unread (SnapshotKnown) keys the git facts by the digest it is given: a
// change of its content under a new digest asks git again, so the cached status of the
// old content is not reused.
func TestSnapshotKnownKeysGitFactsByTheDigest(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.txt", "a\n")
	cmd := exec.Command("sh", "-c", "git init -q -b main && git add -A && git commit -q -m first")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))

	tr, err := compare.SnapshotKnown(dir, nil, map[string]string{"a.txt": "unread:1"})
	require.NoError(t, err)
	assert.Equal(t, "unread:1", tr["a.txt"].SHA256)
	assert.Empty(t, tr[".git:status"].Content)
	write(t, dir, "a.txt", "b\n")
	tr, err = compare.SnapshotKnown(dir, nil, map[string]string{"a.txt": "unread:2"})
	require.NoError(t, err)
	assert.Equal(t, " M a.txt\n", string(tr[".git:status"].Content))
}

// Normalising keeps each file's own mode though the result for its content is reused,
// rewrites a work directory in the content of the lane that has it, and gives the same
// content under other rules its own result.
func TestNormalizeReusesOnlyWhatCannotDiffer(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	const stamp = "at 2026-01-02T03:04:05Z\n"
	write(t, a, "plain.txt", stamp)
	write(t, a, "tool.sh", stamp)
	require.NoError(t, os.Chmod(filepath.Join(a, "tool.sh"), 0o755))
	write(t, a, "where.txt", "in "+a+"\n")
	write(t, b, "where.txt", "in "+b+"\n")
	ta, err := compare.Snapshot(a)
	require.NoError(t, err)
	tb, err := compare.Snapshot(b)
	require.NoError(t, err)

	norm := compare.NewNormalizer(a, b)
	for range 2 { // the second round is served from the cache
		na := ta.Normalize(norm)
		assert.Equal(t, "at <TIME>\n", string(na["plain.txt"].Content))
		assert.Equal(t, "at <TIME>\n", string(na["tool.sh"].Content))
		assert.Equal(t, na["plain.txt"].SHA256, na["tool.sh"].SHA256)
		assert.Equal(t, os.FileMode(0o644), na["plain.txt"].Mode)
		assert.Equal(t, os.FileMode(0o755), na["tool.sh"].Mode)
		assert.Equal(t, "in $WORK\n", string(na["where.txt"].Content))
		nb := tb.Normalize(norm)
		assert.Equal(t, "in $WORK\n", string(nb["where.txt"].Content))
		assert.Equal(t, na["where.txt"], nb["where.txt"])
	}
	// The same rules with only b's directory as work leave a's path as it is.
	assert.Equal(t, "in "+a+"\n", string(ta.Normalize(compare.NewNormalizer(b))["where.txt"].Content))
	// No rules: the timestamp stays.
	bare := compare.Normalizer{Work: []string{a}, Rules: []compare.Rule{}}
	assert.Equal(t, stamp, string(ta.Normalize(bare)["plain.txt"].Content))
}

// CopyTreeSharingObjects shares the repository's object files with the original by hard
// link (git never writes one in place) and copies everything else, so a commit in the
// copy never reaches the original; CopyTree (the kernel's shadow copies) shares nothing.
func TestCopyTreeSharesOnlyGitObjects(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	write(t, src, "a.txt", "a\n")
	cmd := exec.Command("git", "init", "-q", "-b", "main")
	cmd.Dir = src
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	cmd = exec.Command("git", "-c", "user.name=t", "-c", "user.email=t@e", "-c", "maintenance.auto=false", "commit", "-q", "--allow-empty", "-m", "x")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	write(t, src, ".git/objects/info/alternates", "")
	plain := filepath.Join(t.TempDir(), "plain")
	require.NoError(t, compare.CopyTree(src, plain, nil))
	require.NoError(t, filepath.WalkDir(plain, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(plain, path)
		a, err := os.Stat(filepath.Join(src, rel))
		require.NoError(t, err)
		b, err := os.Stat(path)
		require.NoError(t, err)
		assert.False(t, os.SameFile(a, b), "CopyTree shares %s", rel)
		return nil
	}))
	dst := filepath.Join(t.TempDir(), "dst")
	require.NoError(t, compare.CopyTreeSharingObjects(src, dst, nil))

	shared, copied := 0, 0
	require.NoError(t, filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		a, err := os.Stat(path)
		require.NoError(t, err)
		b, err := os.Stat(filepath.Join(dst, rel))
		require.NoError(t, err)
		info := strings.HasPrefix(filepath.ToSlash(rel), ".git/objects/info/")
		if os.SameFile(a, b) {
			shared++
			assert.True(t, strings.HasPrefix(filepath.ToSlash(rel), ".git/objects/") && !info, "%s is shared", rel)
		} else {
			copied++
			assert.False(t, strings.HasPrefix(filepath.ToSlash(rel), ".git/objects/") && !info, "%s is a copy", rel)
		}
		return nil
	}))
	assert.Positive(t, shared, "objects shared")
	assert.Positive(t, copied, "the rest copied")
	// The copy's git works on its own, and its commits do not reach the original.
	write(t, dst, "b.txt", "b\n")
	for _, argv := range [][]string{{"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "in the copy"}} {
		cmd := exec.Command("git", argv...)
		cmd.Dir = dst
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
	}
	cmd = exec.Command("git", "log", "--format=%s")
	cmd.Dir = src
	out, err = cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Equal(t, "x\n", string(out))
}
