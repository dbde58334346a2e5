package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/internal/failpoint"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Git runs the git binary in a directory (corpus §2.4). Failures are GIT_ERROR *Errors whose
// message is git's first stderr line. Every invocation passes the global option
// --no-optional-locks (see [GitGlobalArgs]), so reads never rewrite .git/index.
type Git struct {
	// Dir is the directory git runs in.
	Dir string
	// Environ is the environment git starts from (delivery.NewGit: the runtime's). When
	// it is nil, git gets the whole environment the context carries ([WithEnv], a native
	// call's tool.Env); on a context that carries none, a Git with neither Env nor Now
	// leaves git the environment it inherits, and one with either gives git only those.
	Environ []string
	// Env holds extra KEY=VALUE entries appended to Environ.
	Env []string
	// Now is the frozen instant (Runtime.NowString; "" when the clock is not frozen);
	// commits use it for both dates.
	Now string
	// Committer, when set, makes CommitPaths' commits without the git binary
	// (Runtime.UseCommitter: a native call's in-process git); it hands back to git
	// whatever it does not reproduce.
	Committer Committer
}

// Committer makes the commit of [Git.CommitPaths] in-process. It returns an error
// wrapping [ErrUseGit], before it has changed anything, when the repository, the
// environment or the paths need the git binary; CommitPaths then runs git.
type Committer interface {
	Commit(ctx context.Context, job CommitJob) (sha string, err error)
}

// ErrUseGit is what a Committer wraps when git must make the commit.
var ErrUseGit = errors.New("the commit needs the git binary")

// CommitJob is one CommitPaths commit for a Committer: stage and commit exactly Paths
// (those on disk or in HEAD) with §2.4's identity and dates. sha "" with no error means
// nothing changed.
type CommitJob struct {
	Dir, Subject string
	Environ      []string
	Paths        []string
	// Date is both commit dates when the clock is frozen (Git.Now), else "".
	Date string
	// DefaultName and DefaultEmail are the identity when user.email is unset.
	DefaultName, DefaultEmail string
	// Staging runs with the paths kept before the index changes; Staged after it did;
	// Committing before the commit is made.
	Staging    func(keep []string) error
	Staged     func()
	Committing func() error
}

// fallbackName and fallbackEmail are §2.4's identity when user.email is unset.
const fallbackName, fallbackEmail = "delivery", "delivery@localhost"

// commitInProcess is CommitPaths through g.Committer; useGit is true when git must
// make the commit instead.
func (g *Git) commitInProcess(ctx context.Context, subject string, paths []string) (c *Commit, useGit bool, err error) {
	j := storage.JournalFor(g.Dir)
	sha, err := g.Committer.Commit(ctx, CommitJob{
		Dir: g.Dir, Subject: subject, Environ: g.environ(ctx, nil), Paths: paths, Date: g.Now,
		DefaultName: fallbackName, DefaultEmail: fallbackEmail,
		Staging: func(keep []string) error {
			if err := j.Staging(keep); err != nil {
				return err
			}
			failpoint.Hit(failpoint.BeforeAdd)
			return nil
		},
		Staged:     func() { failpoint.Hit(failpoint.AfterAdd) },
		Committing: j.Committing,
	})
	if errors.Is(err, ErrUseGit) {
		return nil, true, nil
	}
	if err != nil || sha == "" {
		return nil, false, err
	}
	if err := j.Committed(); err != nil {
		return nil, false, err
	}
	return &Commit{SHA: sha, Subject: subject}, false, nil
}

// Output runs git with args and returns its stdout.
func (g *Git) Output(ctx context.Context, args ...string) (string, error) {
	out, _, err := g.run(ctx, nil, args...)
	return out, err
}

// GitGlobalArgs are the global options every git invocation of the corpus passes before
// its subcommand. --no-optional-locks keeps a read from taking .git/index.lock to write
// back the stat refresh `git status` and `git diff` would otherwise do: a read-only command
// then writes nothing, and cannot make a concurrent `git commit` fail on index.lock. Git
// ignores it where a lock is required (add, commit, merge…), so writers pass it too.
var GitGlobalArgs = []string{"--no-optional-locks"}

// GitArgs returns GitGlobalArgs followed by args: the argv (after "git") of one call.
func GitArgs(args ...string) []string {
	return append(append(make([]string, 0, len(GitGlobalArgs)+len(args)), GitGlobalArgs...), args...)
}

func (g *Git) run(ctx context.Context, extraEnv []string, args ...string) (string, string, error) {
	cmd := exec.CommandContext(ctx, "git", GitArgs(args...)...)
	cmd.Dir = g.Dir
	cmd.Env = g.environ(ctx, extraEnv)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		line := firstLine(stderr.String())
		if line == "" {
			line = err.Error()
		}
		return stdout.String(), stderr.String(), &storage.Error{Code: tool.CodeGitError,
			Message: fmt.Sprintf("git %s: %s", args[0], line), Err: err}
	}
	return stdout.String(), stderr.String(), nil
}

// environ is the environment of one git run: Environ (else the context's whole
// environment), then Env, then extra; nil (git inherits) only when none is known and
// there is nothing to add.
func (g *Git) environ(ctx context.Context, extra []string) []string {
	base := g.Environ
	if base == nil {
		_, base, _ = EnvOf(ctx)
	}
	if base == nil && len(g.Env) == 0 && len(extra) == 0 {
		return nil
	}
	return append(append(append(make([]string, 0, len(base)+len(g.Env)+len(extra)), base...), g.Env...), extra...)
}

func firstLine(s string) string {
	s = strings.TrimLeft(s, "\n")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// InWorkTree reports whether dir is inside a git work tree (not inside a git directory, not
// in a bare repository). It never runs git init. Like MainCheckout it reads files and runs
// `git rev-parse --is-inside-work-tree` only for what discoverGit leaves to git; discovery
// and that git run see the same environment, the call's that ctx carries ([WithEnv], a
// native call's tool.Env). On a context that carries none, git answers, in the
// environment it inherits. A caller holding the runtime can use delivery.Runtime.InWorkTree.
func InWorkTree(ctx context.Context, dir string) bool {
	lookup, environ, ok := EnvOf(ctx)
	if !ok {
		return inWorkTreeGit(ctx, dir, nil)
	}
	return InWorkTreeEnv(ctx, dir, lookup, environ)
}

// InWorkTreeEnv is InWorkTree with lookup as the environment discovery reads and environ as
// the environment of the git fallback.
func InWorkTreeEnv(ctx context.Context, dir string, lookup LookupEnv, environ []string) bool {
	switch _, found := discoverGit(dir, lookup); found {
	case discoverWorkTree:
		return true
	case discoverNone:
		return false
	}
	return inWorkTreeGit(ctx, dir, environ)
}

// CurrentBranch returns the checked-out branch, or "" when HEAD is detached.
func (g *Git) CurrentBranch(ctx context.Context) (string, error) {
	if b, ok := g.headBranch(ctx); ok {
		return b, nil
	}
	out, err := g.Output(ctx, "branch", "--show-current")
	return strings.TrimSpace(out), err
}

// Commit is the `commit` object of command data: {sha, subject, pushed}.
type Commit struct {
	SHA     string `json:"sha"`
	Subject string `json:"subject"`
	Pushed  bool   `json:"pushed"`
}

// CommitPaths stages and commits exactly paths (root-relative, as given to git) with
// subject, on the current branch: `git add -A -- paths`, then `git commit --no-verify -m
// subject -- paths`. Paths neither on disk nor tracked in HEAD are dropped. It returns nil
// when no staged path actually changed.
func (g *Git) CommitPaths(ctx context.Context, subject string, paths []string) (*Commit, error) {
	if g.Committer != nil {
		if c, useGit, err := g.commitInProcess(ctx, subject, paths); !useGit {
			return c, err
		}
	}
	var keep []string
	seen := map[string]bool{}
	for _, p := range paths {
		if seen[p] {
			continue
		}
		seen[p] = true
		if _, err := os.Lstat(filepath.Join(g.Dir, filepath.FromSlash(p))); err == nil {
			keep = append(keep, p)
			continue
		}
		if _, err := g.Output(ctx, "cat-file", "-e", "HEAD:"+p); err == nil {
			keep = append(keep, p)
		}
	}
	if len(keep) == 0 {
		return nil, nil
	}
	j := storage.JournalFor(g.Dir)
	if err := j.Staging(keep); err != nil {
		return nil, err
	}
	failpoint.Hit(failpoint.BeforeAdd)
	if _, err := g.Output(ctx, append([]string{"add", "-A", "--"}, keep...)...); err != nil {
		return nil, err
	}
	failpoint.Hit(failpoint.AfterAdd)
	// diff --cached --quiet exits 1 when something is staged for these paths.
	if _, err := g.Output(ctx, append([]string{"diff", "--cached", "--quiet", "--"}, keep...)...); err == nil {
		return nil, nil
	} else if !isExit(err, 1) {
		return nil, err
	}
	args := append(g.identityArgs(ctx), "commit", "--no-verify", "-q", "-m", subject, "--")
	return g.commit(ctx, j, subject, append(args, keep...))
}

// CommitEmpty records a commit that changes no file (`git commit --allow-empty`), with
// the same identity, date and hook rules as [Git.CommitPaths]; nothing staged is included.
func (g *Git) CommitEmpty(ctx context.Context, subject string) (*Commit, error) {
	args := append(g.identityArgs(ctx), "commit", "--no-verify", "-q", "--allow-empty", "--only", "-m", subject)
	return g.commit(ctx, storage.JournalFor(g.Dir), subject, args)
}

// commit runs git with args (a `git commit`), telling the run's journal j before and
// after, and returns the commit HEAD now names.
func (g *Git) commit(ctx context.Context, j *storage.Journal, subject string, args []string) (*Commit, error) {
	if err := j.Committing(); err != nil {
		return nil, err
	}
	if _, _, err := g.run(ctx, g.dateEnv(), args...); err != nil {
		return nil, err
	}
	if err := j.Committed(); err != nil {
		return nil, err
	}
	sha, err := g.Output(ctx, "rev-parse", "HEAD")
	if err != nil {
		return nil, err
	}
	return &Commit{SHA: strings.TrimSpace(sha), Subject: subject}, nil
}

func isExit(err error, code int) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee) && ee.ExitCode() == code
}

// HasRemote reports whether a remote with that name exists.
func (g *Git) HasRemote(ctx context.Context, name string) bool {
	out, err := g.Output(ctx, "remote")
	if err != nil {
		return false
	}
	for _, r := range strings.Fields(out) {
		if r == name {
			return true
		}
	}
	return false
}

// Push runs `git push origin HEAD` when origin exists. A failure is returned as the warning
// text "push failed: <first stderr line>", never as an error.
func (g *Git) Push(ctx context.Context) (pushed bool, warning string) {
	if !g.HasRemote(ctx, "origin") {
		return false, ""
	}
	if _, stderr, err := g.run(ctx, nil, "push", "-q", "origin", "HEAD"); err != nil {
		line := firstLine(stderr)
		if line == "" {
			line = err.Error()
		}
		return false, "push failed: " + line
	}
	return true, ""
}

// Worktree is one entry of `git worktree list --porcelain`.
type Worktree struct {
	Path     string
	Head     string
	Branch   string // without refs/heads/; "" when detached or bare
	Detached bool
	Bare     bool
	Locked   bool
	Prunable bool
}

// WorktreeList parses `git worktree list --porcelain`.
func (g *Git) WorktreeList(ctx context.Context) ([]Worktree, error) {
	out, err := g.Output(ctx, "worktree", "list", "--porcelain")
	if err != nil {
		return nil, err
	}
	return ParseWorktrees(out), nil
}

// ParseWorktrees parses porcelain worktree output.
func ParseWorktrees(out string) []Worktree {
	var list []Worktree
	var cur *Worktree
	for _, line := range strings.Split(out, "\n") {
		key, val, _ := strings.Cut(line, " ")
		if key == "worktree" {
			list = append(list, Worktree{Path: val})
			cur = &list[len(list)-1]
			continue
		}
		if cur == nil {
			continue // a line before the first worktree
		}
		switch key {
		case "HEAD":
			cur.Head = val
		case "branch":
			cur.Branch = strings.TrimPrefix(val, "refs/heads/")
		case "detached":
			cur.Detached = true
		case "bare":
			cur.Bare = true
		case "locked":
			cur.Locked = true
		case "prunable":
			cur.Prunable = true
		}
	}
	return list
}

// WorktreeAdd runs `git worktree add [-b branch] path base` (branch checked out when
// newBranch is false). Like every method that hands git a name it did not write itself,
// it puts --end-of-options before the operands, so none is read as an option (a branch
// named by a configured prefix, a caller's base). That is not enough here: git worktree
// add runs `git branch <branch> <base>` itself, without it, so a branch or base that
// begins with "-" is refused before git runs (a branch named --edit-description would
// have git start its editor).
func (g *Git) WorktreeAdd(ctx context.Context, path, branch string, newBranch bool, base string) error {
	if err := notOption("worktree add", branch, base); err != nil {
		return err
	}
	args := []string{"worktree", "add", "-q"}
	if newBranch {
		args = append(args, "-b", branch, "--end-of-options", path, base)
	} else {
		args = append(args, "--end-of-options", path, branch)
	}
	_, err := g.Output(ctx, args...)
	return err
}

// notOption refuses a branch or commit name that git would read as an option.
func notOption(sub string, names ...string) error {
	for _, n := range names {
		if strings.HasPrefix(n, "-") {
			return storage.Errorf(tool.CodeGitError, "git %s: %q is no branch or commit name: it begins with \"-\"", sub, n)
		}
	}
	return nil
}

// WorktreeRemove runs `git worktree remove [--force] path`.
func (g *Git) WorktreeRemove(ctx context.Context, path string, force bool) error {
	args := []string{"worktree", "remove"}
	if force {
		args = append(args, "--force")
	}
	_, err := g.Output(ctx, append(args, "--end-of-options", path)...)
	return err
}

// BranchExists reports whether a local branch exists.
func (g *Git) BranchExists(ctx context.Context, branch string) bool {
	if exists, ok := g.branchExists(ctx, branch); ok {
		return exists
	}
	_, err := g.Output(ctx, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch)
	return err == nil
}

// BranchDelete runs `git branch -d` (or -D when force).
func (g *Git) BranchDelete(ctx context.Context, branch string, force bool) error {
	flag := "-d"
	if force {
		flag = "-D"
	}
	_, err := g.Output(ctx, "branch", flag, "--end-of-options", branch)
	return err
}

// Merge runs `git merge --no-edit branch`; on failure it runs `git merge --abort` and
// returns MERGE_CONFLICT.
func (g *Git) Merge(ctx context.Context, branch string) error {
	_, _, err := g.run(ctx, g.dateEnv(), append(g.identityArgs(ctx), "merge", "--no-edit", "-q", "--end-of-options", branch)...)
	if err == nil {
		return nil
	}
	_, _ = g.Output(ctx, "merge", "--abort")
	return storage.Errorf(tool.CodeMergeConflict, "merging %s failed: %s", branch, storage.AsError(err).Message).WithDetails(map[string]any{"branch": branch})
}

// Dirty reports whether the work tree has uncommitted changes (untracked files included).
func (g *Git) Dirty(ctx context.Context) (bool, error) {
	out, err := g.Output(ctx, "status", "--porcelain")
	return strings.TrimSpace(out) != "", err
}

// identityArgs forces gpg signing off and supplies the fallback identity when user.email
// is unset (corpus §2.4).
func (g *Git) identityArgs(ctx context.Context) []string {
	args := []string{"-c", "commit.gpgsign=false"}
	if email, _ := g.Output(ctx, "config", "--get", "user.email"); strings.TrimSpace(email) == "" {
		args = append(args, "-c", "user.name="+fallbackName, "-c", "user.email="+fallbackEmail)
	}
	return args
}

// dateEnv pins both commit dates to DELIVERY_NOW so SHAs are reproducible.
func (g *Git) dateEnv() []string {
	if g.Now == "" {
		return nil
	}
	return []string{"GIT_AUTHOR_DATE=" + g.Now, "GIT_COMMITTER_DATE=" + g.Now}
}
