package statedir_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/tool"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return string(out)
}

func resolved(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	require.NoError(t, err)
	return r
}

func TestFindInARepositoryAndItsWorktrees(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git on the host")
	}
	repo := resolved(t, t.TempDir())
	git(t, repo, "init", "-q", "-b", "main")
	require.NoError(t, os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644))
	git(t, repo, "add", "a.txt")
	git(t, repo, "commit", "-q", "-m", "a")
	sub := filepath.Join(repo, "deep", "er")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	wt := filepath.Join(resolved(t, t.TempDir()), "wt")
	git(t, repo, "worktree", "add", "-q", "-b", "lane/x", wt)

	want := filepath.Join(repo, ".git", "cmdbridge")
	for name, ws := range map[string]string{"main checkout": repo, "subdirectory": sub, "linked worktree": wt} {
		t.Run(name, func(t *testing.T) {
			d, err := statedir.Find(ws, tool.EnvFromMap(map[string]string{"HOME": t.TempDir()}))
			require.NoError(t, err)
			assert.Equal(t, want, d.Root, "every worktree shares one state directory")
			assert.Contains(t, d.Git, filepath.Join(repo, ".git"))
			if name == "linked worktree" {
				assert.Contains(t, d.Git, filepath.Join(wt, ".git"), "the worktree's .git file")
				assert.Contains(t, d.Git, filepath.Join(repo, ".git", "worktrees", "wt"), "its gitdir")
			}
		})
	}
	// Git never sees the state: a file in it leaves the status clean.
	d, err := statedir.Find(wt, nil)
	require.NoError(t, err)
	require.NoError(t, d.Ensure())
	require.NoError(t, os.WriteFile(d.Path(statedir.TokenKey), []byte("k"), 0o600))
	assert.Empty(t, git(t, wt, "status", "--porcelain"))
	assert.Empty(t, git(t, repo, "status", "--porcelain"))
}

func TestFindOutsideARepository(t *testing.T) {
	ws := resolved(t, t.TempDir())
	d, err := statedir.Find(ws, nil)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(ws, statedir.LegacyDir), d.Root)
	assert.Empty(t, d.Git)
	_, err = os.Stat(d.Root)
	assert.True(t, os.IsNotExist(err), "Find creates nothing")
	moved, err := statedir.Migrate(ws, d)
	require.NoError(t, err)
	assert.Empty(t, moved, "the legacy directory is the state directory here: nothing moves")
}

func TestFindHonoursTheOverride(t *testing.T) {
	override := filepath.Join(t.TempDir(), "state")
	d, err := statedir.Find(t.TempDir(), tool.EnvFromMap(map[string]string{statedir.EnvVar: override}))
	require.NoError(t, err)
	assert.Equal(t, override, d.Root)
	_, err = statedir.Find(t.TempDir(), tool.EnvFromMap(map[string]string{statedir.EnvVar: "relative/state"}))
	assert.ErrorContains(t, err, "absolute")
}

func TestMigrateMovesLegacyStateOnce(t *testing.T) {
	ws := t.TempDir()
	legacy := filepath.Join(ws, statedir.LegacyDir)
	require.NoError(t, os.MkdirAll(filepath.Join(legacy, "evidence"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(legacy, "evidence", "receipts.jsonl"), []byte("r\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(legacy, "token.key"), []byte("k"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(legacy, "config.yaml"), []byte("routes: {}\n"), 0o644))
	d := statedir.Dir{Root: filepath.Join(t.TempDir(), "state")}

	moved, err := statedir.Migrate(ws, d)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"evidence", "token.key"}, moved)
	got, err := os.ReadFile(filepath.Join(d.Root, "evidence", "receipts.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, "r\n", string(got))
	_, err = os.Stat(filepath.Join(legacy, "token.key"))
	assert.True(t, os.IsNotExist(err))
	_, err = os.Stat(filepath.Join(legacy, "config.yaml"))
	assert.NoError(t, err, "the configuration stays in the workspace")
	fi, err := os.Stat(d.Root)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())

	moved, err = statedir.Migrate(ws, d)
	require.NoError(t, err)
	assert.Empty(t, moved, "nothing left to move")

	// An old copy reappearing never overwrites the state in use.
	require.NoError(t, os.WriteFile(filepath.Join(legacy, "token.key"), []byte("old"), 0o600))
	moved, err = statedir.Migrate(ws, d)
	assert.Empty(t, moved)
	assert.ErrorContains(t, err, "both exist")
	got, err = os.ReadFile(d.Path(statedir.TokenKey))
	require.NoError(t, err)
	assert.Equal(t, "k", string(got))
}

// Outside a repository the state is <workspace>/.cmdbridge itself: named relatively
// ("." for the current directory) it is still the same place, and nothing is migrated
// or reported.
func TestMigrateRelativeWorkspaceIsTheSamePlace(t *testing.T) {
	ws := t.TempDir()
	t.Chdir(ws)
	d, err := statedir.Find(".", nil)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(d.Path(statedir.Parity), 0o755))
	moved, err := statedir.Migrate(".", d)
	require.NoError(t, err)
	assert.Empty(t, moved)
}
