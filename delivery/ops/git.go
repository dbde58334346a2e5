package ops

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/tool"
)

// gitRead runs a read-only git command (git:log, git:branch, git:diff) in dir, with the
// environment ctx carries (the legacy process's, or a native call's) plus extra, and
// returns its stdout. A failure is GIT_ERROR with git's first stderr line. The global
// options of gitrepo.GitArgs (--no-optional-locks) come first, so the read does not
// refresh .git/index.
func gitRead(ctx context.Context, dir string, extra []string, args ...string) (string, error) {
	g := &gitrepo.Git{Dir: dir, Env: extra}
	return g.Output(ctx, args...)
}

// gitReadScratchIndex is gitRead on a private copy of the index. Porcelain `git diff`
// refreshes stale stat data and writes the index back whatever --no-optional-locks says
// (diff.autoRefreshIndex; turning that off would make --name-only list files whose
// content did not change). The copy, in the call's temporary directory, takes that write,
// so the repository's .git is never touched by a read.
func gitReadScratchIndex(ctx context.Context, dir string, env gitrepo.LookupEnv, args ...string) (string, error) {
	p, err := gitRead(ctx, dir, nil, "rev-parse", "--git-path", "index")
	if err != nil {
		return gitRead(ctx, dir, nil, args...) // not a repository: git reports it as before
	}
	index := strings.TrimSpace(p)
	if !filepath.IsAbs(index) {
		index = filepath.Join(dir, index)
	}
	b, err := os.ReadFile(index)
	if errors.Is(err, fs.ErrNotExist) {
		return gitRead(ctx, dir, nil, args...) // no index yet: nothing to refresh
	}
	if err != nil {
		return "", delivery.Errorf(tool.CodeIOError, "read git index: %v", err)
	}
	tmp, err := os.MkdirTemp(tempDir(env), "cmdbridge-index-")
	if err != nil {
		return "", delivery.Errorf(tool.CodeIOError, "scratch index: %v", err)
	}
	defer os.RemoveAll(tmp)
	scratch := filepath.Join(tmp, "index")
	if err := os.WriteFile(scratch, b, 0o600); err != nil {
		return "", delivery.Errorf(tool.CodeIOError, "scratch index: %v", err)
	}
	return gitRead(ctx, dir, []string{"GIT_INDEX_FILE=" + scratch}, args...)
}

// tempDir is the call's temporary directory, as os.TempDir finds the process's on Unix:
// $TMPDIR, else /tmp.
func tempDir(env gitrepo.LookupEnv) string {
	if env != nil {
		if v, ok := env("TMPDIR"); ok && v != "" {
			return v
		}
	}
	return "/tmp"
}
