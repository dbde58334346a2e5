package files

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// git runs git in dir and returns its stdout; a failure is GIT_ERROR with git's first
// stderr line. Git's stderr is not forwarded, so both lanes print the same diagnostics.
// The global options of delivery.GitArgs (--no-optional-locks) come first: git:diff,
// git:log and git:branch are read-only and must not refresh .git/index.
func git(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", delivery.GitArgs(args...)...)
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

// gitScratchIndex runs git like [git], on a private copy of the index. Porcelain `git
// diff` refreshes stale stat data and writes the index back whatever
// --no-optional-locks says (diff.autoRefreshIndex; turning that off would make
// --name-only list files whose content did not change). The copy takes that write, so
// the repository's .git is never touched by a read.
func gitScratchIndex(ctx context.Context, dir string, args ...string) ([]byte, error) {
	p, err := git(ctx, dir, nil, "rev-parse", "--git-path", "index")
	if err != nil {
		return git(ctx, dir, nil, args...) // not a repository: git reports it as before
	}
	index := strings.TrimSpace(string(p))
	if !filepath.IsAbs(index) {
		index = filepath.Join(dir, index)
	}
	b, err := os.ReadFile(index)
	if errors.Is(err, fs.ErrNotExist) {
		return git(ctx, dir, nil, args...) // no index yet: nothing to refresh
	}
	if err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "read git index: %v", err)
	}
	tmp, err := os.MkdirTemp("", "cmdbridge-index-")
	if err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "scratch index: %v", err)
	}
	defer os.RemoveAll(tmp)
	scratch := filepath.Join(tmp, "index")
	if err := os.WriteFile(scratch, b, 0o600); err != nil {
		return nil, delivery.Errorf(tool.CodeIOError, "scratch index: %v", err)
	}
	return git(ctx, dir, []string{"GIT_INDEX_FILE=" + scratch}, args...)
}
