package gitcommit_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/commands/commandstest"
	"github.com/cmdbridge/cmdbridge/delivery/gitcommit"
)

const date = "2026-03-01T10:00:00.000Z"

// gitEnv isolates git from the machine's configuration.
func gitEnv(home string) []string {
	return []string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "HOME=" + home, "PATH=" + os.Getenv("PATH"), "TZ=UTC"}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(gitEnv(t.TempDir()), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return string(out)
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

// newRepo is a repository with a few committed files and an identity: a copy of one
// made by git once per test binary (a dozen git processes fewer per test).
func newRepo(t *testing.T) string {
	tree, err := baseRepo()
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, tree.Write(dir))
	return dir
}

var baseRepo = sync.OnceValues(func() (*commandstest.Tree, error) {
	dir, err := os.MkdirTemp("", "gitcommit-base-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	for name, content := range map[string]string{"README.md": "hello\n", "docs/tasks/wu/WU-1.yaml": "id: WU-1\n",
		"docs/tasks/wu/WU-2.yaml": "id: WU-2\n", "gone/only.txt": "x\n", "a-b/x": "1\n", "a/x": "1\n"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return nil, err
		}
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"config", "user.name", "Ada Lovelace"},
		{"config", "user.email", "ada@example.com"}, {"add", "-A"}, {"commit", "-q", "-m", "initial"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(gitEnv(dir), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("git %v: %w: %s", args, err, out)
		}
	}
	return commandstest.ReadTree(dir)
})

// twin copies a repository with everything in it.
func twin(t *testing.T, dir string) string {
	tree, err := commandstest.ReadTree(dir)
	require.NoError(t, err)
	dst := filepath.Join(t.TempDir(), "twin")
	require.NoError(t, tree.Write(dst))
	return dst
}

// gitCommit is the corpus's git sequence; it returns false when nothing was staged.
func gitCommit(t *testing.T, dir, msg string, paths ...string) bool {
	var keep []string
	for _, p := range paths {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			keep = append(keep, p)
			continue
		}
		cmd := exec.Command("git", "cat-file", "-e", "HEAD:"+p)
		cmd.Dir = dir
		if cmd.Run() == nil {
			keep = append(keep, p)
		}
	}
	git(t, dir, append([]string{"add", "-A", "--"}, keep...)...)
	cmd := exec.Command("git", append([]string{"diff", "--cached", "--quiet", "--"}, keep...)...)
	cmd.Dir = dir
	if cmd.Run() == nil {
		return false
	}
	email := exec.Command("git", "config", "--get", "user.email")
	email.Dir, email.Env = dir, gitEnv(t.TempDir())
	out, _ := email.Output()
	args := []string{"-c", "commit.gpgsign=false"}
	if strings.TrimSpace(string(out)) == "" {
		args = append(args, "-c", "user.name=delivery", "-c", "user.email=delivery@localhost")
	}
	git(t, dir, append(append(args, "commit", "--no-verify", "-q", "-m", msg, "--"), keep...)...)
	return true
}

// inProcess makes the same commit with the package; it returns false when nothing was
// staged.
func inProcess(t *testing.T, dir, msg string, paths ...string) bool {
	return inProcessWith(t, nil, dir, msg, paths...)
}

// inProcessWith is inProcess with the Repo using cache c.
func inProcessWith(t *testing.T, c *gitcommit.Cache, dir, msg string, paths ...string) bool {
	t.Helper()
	r, err := gitcommit.Open(dir, gitEnv(t.TempDir()))
	require.NoError(t, err)
	p, err := r.UseCache(c).Prepare(gitcommit.Request{Paths: paths, Message: msg, Date: date,
		Default: gitcommit.Ident{Name: "delivery", Email: "delivery@localhost"}})
	require.NoError(t, err)
	changed, err := p.Stage()
	require.NoError(t, err)
	if !changed {
		return false
	}
	_, err = p.Commit(context.Background())
	require.NoError(t, err)
	return true
}

// state is what git says of a repository: what a later reader would see.
func state(t *testing.T, dir string) map[string]string {
	branch := strings.TrimSpace(git(t, dir, "symbolic-ref", "--short", "HEAD"))
	logs := func(p string) string {
		b, _ := os.ReadFile(filepath.Join(dir, ".git", p))
		return string(b)
	}
	return map[string]string{
		"HEAD":       git(t, dir, "rev-parse", "HEAD"),
		"commit":     git(t, dir, "cat-file", "-p", "HEAD"),
		"ls-files":   git(t, dir, "ls-files", "-s"),
		"status":     git(t, dir, "status", "--porcelain=v1", "-uall"),
		"write-tree": git(t, dir, "write-tree"),
		"reflog":     logs("logs/HEAD"),
		"branchlog":  logs("logs/refs/heads/" + branch),
	}
}

// TestSameCommitAsGit makes each change in two copies of one repository, with git's
// commands in one and the package in the other, and compares what git then reads from
// both: the commit (its SHA, so tree, message and identity bytes), the index, the
// status, the cache-tree (write-tree), the reflogs. fsck must find nothing, and a
// later git commit on the package's commit must work.
func TestSameCommitAsGit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		setup  func(t *testing.T, dir string) // both copies, before the change
		change func(t *testing.T, dir string)
		paths  []string
		msg    string
		commit bool
	}{
		{name: "modify", change: func(t *testing.T, dir string) { write(t, dir, "docs/tasks/wu/WU-1.yaml", "id: WU-1\nstatus: ready\n") },
			paths: []string{"docs/tasks/wu/WU-1.yaml"}, msg: "wu(wu-1): claim", commit: true},
		{name: "new nested file", change: func(t *testing.T, dir string) { write(t, dir, "docs/new/deep/WU-3.yaml", "id: WU-3\n") },
			paths: []string{"docs/new/deep/WU-3.yaml", "README.md"}, msg: "docs: create wu-3", commit: true},
		{name: "delete and empty a directory", change: func(t *testing.T, dir string) {
			require.NoError(t, os.RemoveAll(filepath.Join(dir, "gone")))
			require.NoError(t, os.Remove(filepath.Join(dir, "docs/tasks/wu/WU-2.yaml")))
		}, paths: []string{"gone/only.txt", "docs/tasks/wu/WU-2.yaml"}, msg: "chore: delete", commit: true},
		{name: "names that sort around a directory", change: func(t *testing.T, dir string) {
			write(t, dir, "a/x", "2\n")
			write(t, dir, "a.txt", "3\n")
		}, paths: []string{"a/x", "a.txt"}, msg: "sort", commit: true},
		{name: "executable bit and symlink", change: func(t *testing.T, dir string) {
			require.NoError(t, os.Chmod(filepath.Join(dir, "README.md"), 0o755))
			require.NoError(t, os.Symlink("README.md", filepath.Join(dir, "link")))
		}, paths: []string{"README.md", "link"}, msg: "modes", commit: true},
		{name: "other staged changes stay staged", setup: func(t *testing.T, dir string) {
			write(t, dir, "a-b/x", "staged\n")
			git(t, dir, "add", "a-b/x")
		}, change: func(t *testing.T, dir string) {
			write(t, dir, "docs/tasks/wu/WU-1.yaml", "id: WU-1\nstatus: blocked\n")
		},
			paths: []string{"docs/tasks/wu/WU-1.yaml"}, msg: "wu(wu-1): block", commit: true},
		{name: "message cleaned up", change: func(t *testing.T, dir string) { write(t, dir, "README.md", "hello again\n") },
			paths: []string{"README.md"}, msg: "\n\nsubject   \n\n\n\nbody line \t\n\n", commit: true},
		{name: "no user.email: the default identity", setup: func(t *testing.T, dir string) {
			git(t, dir, "config", "--unset", "user.email")
		}, change: func(t *testing.T, dir string) { write(t, dir, "README.md", "bye\n") },
			paths: []string{"README.md"}, msg: "chore: config:set", commit: true},
		{name: "identity from config.worktree (extensions.worktreeConfig)", setup: func(t *testing.T, dir string) {
			git(t, dir, "config", "extensions.worktreeConfig", "true")
			git(t, dir, "config", "--worktree", "user.name", "Per Worktree")
		}, change: func(t *testing.T, dir string) { write(t, dir, "README.md", "wt\n") },
			paths: []string{"README.md"}, msg: "worktree config", commit: true},
		{name: "packed objects", setup: func(t *testing.T, dir string) { git(t, dir, "gc", "-q") },
			change: func(t *testing.T, dir string) { write(t, dir, "docs/tasks/wu/WU-2.yaml", "id: WU-2\nx: 1\n") },
			paths:  []string{"docs/tasks/wu/WU-2.yaml"}, msg: "packed", commit: true},
		{name: "nothing changed", change: func(t *testing.T, dir string) { write(t, dir, "README.md", "hello\n") },
			paths: []string{"README.md", "never/existed"}, msg: "noop", commit: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := newRepo(t)
			if tc.setup != nil {
				tc.setup(t, base)
			}
			a, b := twin(t, base), twin(t, base)
			tc.change(t, a)
			tc.change(t, b)
			assert.Equal(t, tc.commit, gitCommit(t, a, tc.msg, tc.paths...), "git")
			assert.Equal(t, tc.commit, inProcess(t, b, tc.msg, tc.paths...), "in-process")
			assert.Equal(t, state(t, a), state(t, b))
			assert.Empty(t, git(t, b, "fsck", "--full", "--strict", "--no-progress", "--no-dangling"))
			write(t, b, "later.txt", "later\n")
			git(t, b, "add", "later.txt")
			git(t, b, "-c", "user.name=l", "-c", "user.email=l@e", "commit", "-q", "-m", "later")
		})
	}
}

// TestLinkedWorktree commits in a linked worktree: objects and the branch in the
// common directory, the index and HEAD's reflog in the worktree's.
func TestLinkedWorktree(t *testing.T) {
	base := newRepo(t)
	a, b := twin(t, base), twin(t, base)
	for _, d := range []string{a, b} {
		git(t, d, "worktree", "add", "-q", "-b", "lane", "wt")
		write(t, filepath.Join(d, "wt"), "README.md", "from the lane\n")
	}
	require.True(t, gitCommit(t, filepath.Join(a, "wt"), "lane work", "README.md"))
	require.True(t, inProcess(t, filepath.Join(b, "wt"), "lane work", "README.md"))
	wa, wb := state(t, filepath.Join(a, "wt")), state(t, filepath.Join(b, "wt"))
	delete(wa, "reflog")
	delete(wb, "reflog")
	assert.Equal(t, wa, wb)
	la, _ := os.ReadFile(filepath.Join(a, ".git/worktrees/wt/logs/HEAD"))
	lb, _ := os.ReadFile(filepath.Join(b, ".git/worktrees/wt/logs/HEAD"))
	assert.Equal(t, string(la), string(lb))
	assert.Equal(t, git(t, a, "rev-parse", "lane"), git(t, b, "rev-parse", "lane"))
	assert.Equal(t, git(t, a, "status", "--porcelain"), git(t, b, "status", "--porcelain"))
}

// TestUnsupportedNeedsGit: every repository, environment or path the package does not
// reproduce is refused before anything but objects is written, with the reason.
func TestUnsupportedNeedsGit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		setup  func(t *testing.T, dir string) []string // returns extra environment
		paths  []string
		reason string
	}{
		{"post-commit hook", func(t *testing.T, dir string) []string {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".git/hooks/post-commit"), []byte("#!/bin/sh\n"), 0o755))
			return nil
		}, nil, "the post-commit hook"},
		{"reftable", func(t *testing.T, dir string) []string {
			git(t, dir, "config", "core.repositoryformatversion", "1")
			git(t, dir, "config", "extensions.refStorage", "reftable")
			return nil
		}, nil, "the repository extension refstorage"},
		{"sha256 objects", func(t *testing.T, dir string) []string {
			git(t, dir, "config", "core.repositoryformatversion", "1")
			git(t, dir, "config", "extensions.objectFormat", "sha256")
			return nil
		}, nil, "the repository extension objectformat"},
		{"alternates", func(t *testing.T, dir string) []string {
			write(t, dir, ".git/objects/info/alternates", "/nowhere\n")
			return nil
		}, nil, "alternates"},
		{"attributes", func(t *testing.T, dir string) []string {
			write(t, dir, "docs/.gitattributes", "*.yaml text eol=crlf\n")
			return nil
		}, []string{"docs/tasks/wu/WU-1.yaml"}, "attributes in "},
		{"autocrlf", func(t *testing.T, dir string) []string { git(t, dir, "config", "core.autocrlf", "true"); return nil }, nil, "core.autocrlf=true"},
		{"an included file", func(t *testing.T, dir string) []string { git(t, dir, "config", "include.path", "other"); return nil }, nil, "includes other files"},
		{"index version 4", func(t *testing.T, dir string) []string {
			git(t, dir, "update-index", "--index-version", "4")
			return nil
		}, nil, "index version 4"},
		{"split index", func(t *testing.T, dir string) []string { git(t, dir, "update-index", "--split-index"); return nil }, nil, "split or sparse index"},
		{"GIT_INDEX_FILE", func(t *testing.T, dir string) []string { return []string{"GIT_INDEX_FILE=/tmp/x"} }, nil, "the environment sets GIT_INDEX_FILE"},
		{"identity from the environment", func(t *testing.T, dir string) []string { return []string{"GIT_AUTHOR_NAME=Eve"} }, nil, "GIT_AUTHOR_NAME"},
		{"detached HEAD", func(t *testing.T, dir string) []string { git(t, dir, "checkout", "-q", "--detach"); return nil }, nil, "a detached HEAD"},
		{"an ignored new file", func(t *testing.T, dir string) []string {
			write(t, dir, ".gitignore", "*.log\n")
			write(t, dir, "build/out.log", "x\n")
			return nil
		}, []string{"build/out.log"}, "is a new, ignored file"},
		{"an ignored directory", func(t *testing.T, dir string) []string {
			write(t, dir, ".gitignore", "build/\n")
			write(t, dir, "build/out.txt", "x\n")
			return nil
		}, []string{"build/out.txt"}, "is a new, ignored file"},
		{"a directory path", func(t *testing.T, dir string) []string { return nil }, []string{"docs"}, "not a regular file"},
		{"a path beyond a symlink", func(t *testing.T, dir string) []string {
			require.NoError(t, os.Symlink("docs", filepath.Join(dir, "ln")))
			return nil
		}, []string{"ln/tasks/wu/WU-1.yaml"}, "not a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t)
			head := func() string {
				b, err := os.ReadFile(filepath.Join(dir, ".git/refs/heads/main"))
				require.NoError(t, err)
				return string(b)
			}
			before := head()
			extra := tc.setup(t, dir)
			index, _ := os.ReadFile(filepath.Join(dir, ".git/index"))
			paths := tc.paths
			if paths == nil {
				write(t, dir, "README.md", "changed\n")
				paths = []string{"README.md"}
			}
			err := func() error {
				r, err := gitcommit.Open(dir, append(gitEnv(t.TempDir()), extra...))
				if err != nil {
					return err
				}
				_, err = r.Prepare(gitcommit.Request{Paths: paths, Message: "m", Date: date})
				return err
			}()
			reason, ok := gitcommit.IsUnsupported(err)
			require.True(t, ok, "want Unsupported, got %v", err)
			assert.Contains(t, reason, tc.reason)
			assert.Equal(t, before, head())
			after, _ := os.ReadFile(filepath.Join(dir, ".git/index"))
			assert.Equal(t, index, after, "the index is untouched")
		})
	}
}

// TestLockedIndexIsGitsError: an index.lock left by another git is the error git gives,
// and nothing moves.
func TestLockedIndexIsGitsError(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "README.md", "changed\n")
	r, err := gitcommit.Open(dir, gitEnv(t.TempDir()))
	require.NoError(t, err)
	p, err := r.Prepare(gitcommit.Request{Paths: []string{"README.md"}, Message: "m", Date: date})
	require.NoError(t, err)
	write(t, dir, ".git/index.lock", "")
	_, err = p.Stage()
	var ge *gitcommit.GitError
	require.ErrorAs(t, err, &ge)
	assert.Contains(t, ge.Msg, "index.lock': File exists.")
	require.NoError(t, os.Remove(filepath.Join(dir, ".git/index.lock")))
	assert.Equal(t, " M README.md\n", git(t, dir, "status", "--porcelain"))
}

// TestRacesAreGitsErrors: a commit that finds index.lock taken fails as git fails and
// leaves the other writer's lock; one that finds the branch moved since it staged
// commits on top of the move, as git commit -- <paths> would (it reads HEAD when it
// starts).
func TestRacesAreGitsErrors(t *testing.T) {
	prepare := func(t *testing.T) (string, *gitcommit.Plan) {
		dir := newRepo(t)
		write(t, dir, "README.md", "changed\n")
		r, err := gitcommit.Open(dir, gitEnv(t.TempDir()))
		require.NoError(t, err)
		p, err := r.Prepare(gitcommit.Request{Paths: []string{"README.md"}, Message: "m", Date: date})
		require.NoError(t, err)
		changed, err := p.Stage()
		require.NoError(t, err)
		require.True(t, changed)
		return dir, p
	}
	t.Run("index.lock taken", func(t *testing.T) {
		dir, p := prepare(t)
		before := git(t, dir, "rev-parse", "HEAD")
		write(t, dir, ".git/index.lock", "")
		_, err := p.Commit(context.Background())
		var ge *gitcommit.GitError
		require.ErrorAs(t, err, &ge)
		assert.Contains(t, ge.Msg, "index.lock': File exists.")
		assert.FileExists(t, filepath.Join(dir, ".git/index.lock"), "another writer's lock is not ours to remove")
		require.NoError(t, os.Remove(filepath.Join(dir, ".git/index.lock")))
		assert.Equal(t, before, git(t, dir, "rev-parse", "HEAD"))
	})
	t.Run("branch moved", func(t *testing.T) {
		dir, p := prepare(t)
		write(t, dir, "other.txt", "other\n")
		git(t, dir, "add", "other.txt")
		git(t, dir, "-c", "user.name=o", "-c", "user.email=o@e", "commit", "-q", "-m", "someone else", "--", "other.txt")
		moved := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
		h, err := p.Commit(context.Background())
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("%x", h), strings.TrimSpace(git(t, dir, "rev-parse", "HEAD")))
		assert.Equal(t, moved, strings.TrimSpace(git(t, dir, "rev-parse", "HEAD~1")))
		assert.Equal(t, "M\tREADME.md\n", git(t, dir, "diff", "--name-status", "HEAD~1", "HEAD"))
		assert.Empty(t, git(t, dir, "status", "--porcelain"))
		assert.NoFileExists(t, filepath.Join(dir, ".git/index.lock"))
		assert.NoFileExists(t, filepath.Join(dir, ".git/refs/heads/main.lock"))
	})
}

// TestConcurrentWriters: in-process committers racing on one repository, each retried
// when it meets another's lock, while git reads it without pause, leave a repository
// fsck accepts, every change committed once, nothing left staged, and every git read
// succeeded. (Git's own writers are left out on purpose: `git commit -- <paths>` reads
// the index before it takes index.lock, so two git processes can already lose each
// other's `git add`; the in-process committer re-reads under the lock.)
func TestConcurrentWriters(t *testing.T) {
	t.Run("no cache", func(t *testing.T) { concurrentWriters(t, nil) })
	// One host's cache shared by its calls: a writer that lost the race to the index
	// lock must find the index the winner wrote, never the one it read.
	t.Run("one cache", func(t *testing.T) { concurrentWriters(t, new(gitcommit.Cache)) })
}

func concurrentWriters(t *testing.T, cache *gitcommit.Cache) {
	t.Parallel()
	dir := newRepo(t)
	const writers, commits = 6, 4
	errs := make(chan error, writers+2)
	var wg, readers sync.WaitGroup
	done := make(chan struct{})
	for i := 0; i < 2; i++ {
		readers.Add(1)
		go func(i int) {
			defer readers.Done()
			args := [][]string{{"--no-optional-locks", "status", "--porcelain"}, {"log", "--oneline"}}[i]
			for {
				select {
				case <-done:
					return
				default:
				}
				cmd := exec.Command("git", args...)
				cmd.Dir, cmd.Env = dir, gitEnv(dir)
				if out, err := cmd.CombinedOutput(); err != nil {
					errs <- fmt.Errorf("git %v while committing: %v: %s", args, err, out)
					return
				}
			}
		}(i)
	}
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for c := 0; c < commits; c++ {
				name := fmt.Sprintf("w%d/c%d.txt", w, c)
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					errs <- err
					return
				}
				if err := os.WriteFile(p, []byte(name+"\n"), 0o644); err != nil {
					errs <- err
					return
				}
				for attempt := 0; ; attempt++ {
					err := commitOnce(cache, dir, name)
					if err == nil {
						break
					}
					if attempt > 500 || !strings.Contains(err.Error(), ".lock") {
						errs <- fmt.Errorf("%s: %w", name, err)
						return
					}
					time.Sleep(time.Millisecond)
				}
			}
		}(w)
	}
	wg.Wait()
	close(done)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assert.Empty(t, git(t, dir, "fsck", "--full", "--strict", "--no-progress", "--no-dangling"))
	assert.Empty(t, git(t, dir, "status", "--porcelain"))
	log := strings.Fields(git(t, dir, "log", "--format=%s"))
	assert.Len(t, log, writers*commits+1, "every change committed once")
	tracked := git(t, dir, "ls-files")
	for w := 0; w < writers; w++ {
		for c := 0; c < commits; c++ {
			assert.Contains(t, tracked, fmt.Sprintf("w%d/c%d.txt", w, c))
		}
	}
}

// commitOnce is one in-process commit of name.
func commitOnce(cache *gitcommit.Cache, dir, name string) error {
	r, err := gitcommit.Open(dir, gitEnv(dir))
	if err != nil {
		return err
	}
	p, err := r.UseCache(cache).Prepare(gitcommit.Request{Paths: []string{name}, Message: name, Date: date})
	if err != nil {
		return err
	}
	if _, err := p.Stage(); err != nil {
		return err
	}
	_, err = p.Commit(context.Background())
	return err
}
