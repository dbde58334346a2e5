package wsgen

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// writeGit makes the workspace a repository with everything but runtime state committed
// on main, then adds a linked worktree on the lane branch of each WU in progress. The
// worktrees are sparse (workspace.yaml and the lane's code) so that creating one costs
// the same at 16× as at 1×; git status in them is clean, as in a fresh claim.
func (g *gen) writeGit() error {
	if !g.opts.Git {
		return nil
	}
	if err := g.git(g.dir, "init", "-q", "-b", "main"); err != nil {
		return err
	}
	if err := g.git(g.dir, "add", "-A"); err != nil {
		return err
	}
	if err := g.git(g.dir, "commit", "-q", "--no-verify", "-m", "chore: import the mature workspace"); err != nil {
		return err
	}
	for _, w := range g.wus {
		if w.role != roleInProgress {
			continue
		}
		wt := g.worktree(w)
		if err := g.git(g.dir, "worktree", "add", "-q", "--no-checkout", "-b", g.branch(w), wt); err != nil {
			return err
		}
		abs := filepath.Join(g.dir, filepath.FromSlash(wt))
		sparse := []string{"sparse-checkout", "set", "--no-cone", "/workspace.yaml"}
		for _, p := range lanes[w.lane].paths {
			sparse = append(sparse, "/"+path.Clean(strings.TrimSuffix(p, "**"))+"/")
		}
		if err := g.git(abs, sparse...); err != nil {
			return err
		}
		if err := g.git(abs, "checkout", "-q"); err != nil {
			return err
		}
	}
	return nil
}

// git runs one git command in dir with the caller's configuration shut out and a fixed
// identity and date, so two runs make the same commits.
func (g *gen) git(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	date := delivery.Timestamp(now)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=wsgen", "GIT_AUTHOR_EMAIL="+owner, "GIT_COMMITTER_NAME=wsgen", "GIT_COMMITTER_EMAIL="+owner,
		"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return nil
}
