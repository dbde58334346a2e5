package files

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"

	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// git runs git in dir and returns its stdout; a failure is GIT_ERROR with git's first
// stderr line. Git's stderr is not forwarded, so both lanes print the same diagnostics.
// TODO(delivery): use the delivery package's git runner once it lands.
func git(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		line, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if line == "" {
			line = err.Error()
		}
		return stdout.Bytes(), delivery.Errorf(tool.CodeGitError, "git %s: %s", args[0], line)
	}
	return stdout.Bytes(), nil
}

// commit applies spec §2.4 to the paths a command wrote (root-relative): it stages and
// commits exactly those paths on the current branch, and pushes when configured. It
// returns nil when nothing was committed.
// TODO(delivery): replace with the delivery package's commit (§2.4) once it lands.
func commit(c *convention.Call, w *delivery.Workspace, subject string, paths ...string) (*convention.Commit, error) {
	ctx := c.Context()
	if !w.Config.AutoCommit {
		return nil, nil
	}
	if out, err := git(ctx, w.Root, nil, "rev-parse", "--is-inside-work-tree"); err != nil || strings.TrimSpace(string(out)) != "true" {
		return nil, nil
	}
	if _, err := git(ctx, w.Root, nil, append([]string{"add", "-A", "--"}, paths...)...); err != nil {
		return nil, err
	}
	if _, err := git(ctx, w.Root, nil, append([]string{"diff", "--cached", "--quiet", "--"}, paths...)...); err == nil {
		return nil, nil // nothing staged changed
	}
	args := []string{"-c", "commit.gpgsign=false"}
	if out, _ := git(ctx, w.Root, nil, "config", "user.email"); strings.TrimSpace(string(out)) == "" {
		args = append(args, "-c", "user.name=delivery", "-c", "user.email=delivery@localhost")
	}
	var env []string
	if now, ok := c.LookupEnv("DELIVERY_NOW"); ok && now != "" {
		env = []string{"GIT_AUTHOR_DATE=" + now, "GIT_COMMITTER_DATE=" + now}
	}
	args = append(append(args, "commit", "--no-verify", "-q", "-m", subject, "--"), paths...)
	if _, err := git(ctx, w.Root, env, args...); err != nil {
		return nil, err
	}
	sha, err := git(ctx, w.Root, nil, "rev-parse", "HEAD")
	if err != nil {
		return nil, err
	}
	cm := &convention.Commit{SHA: strings.TrimSpace(string(sha)), Subject: subject}
	if w.Config.Push {
		if _, err := git(ctx, w.Root, nil, "remote", "get-url", "origin"); err == nil {
			branch, _ := git(ctx, w.Root, nil, "branch", "--show-current")
			if _, err := git(ctx, w.Root, nil, "push", "-q", "origin", "HEAD"); err != nil {
				msg := delivery.AsError(err).Message
				c.Warn("push failed: %s", strings.TrimPrefix(msg, "git push: "))
			} else {
				cm.Pushed, cm.Branch = true, strings.TrimSpace(string(branch))
			}
		}
	}
	return cm, nil
}
