package gitrepo

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdbridge/cmdbridge/internal/gittest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitSays runs git in dir and returns its trimmed stdout and whether it succeeded.
func gitSays(t *testing.T, dir string, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err == nil
}

// TestRefsReadAsGitReadsThem: the current branch and whether a branch exists, read from
// HEAD, loose refs and packed-refs, equal what git answers, in every layout discovery
// knows, after a detach, on an unborn branch, after git pack-refs; and they are read
// from the files (no git run) wherever the layout is plain.
func TestRefsReadAsGitReadsThem(t *testing.T) {
	isolateGit(t)
	ctx := processEnv()
	root := gitLayout(t)
	at := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	// More states: a detached worktree, an unborn branch, a packed branch, a branch
	// whose name nests.
	gittest.Run(t, at("repo"), "worktree", "add", "-q", "--detach", "../detached")
	gittest.Run(t, at("repo"), "branch", "packed/one")
	gittest.Run(t, at("repo"), "branch", "feature/deep/name")
	gittest.Run(t, at("repo"), "pack-refs", "--all")
	gittest.Run(t, at("repo"), "branch", "loose-after-pack")
	require.NoError(t, os.MkdirAll(at("unborn"), 0o755))
	gittest.Run(t, at("unborn"), "init", "-q", "-b", "trunk")

	for _, rel := range []string{"repo", "repo/sub/deep", "wt", "wt/sub", "repo/worktrees/x-wu-1/sub", "relwt",
		"sep/sub", "repo/nested/inner", "link-wt-sub", "detached", "unborn", "pw", "pwwt",
		"bare.git", "cw", "plain/sub"} {
		t.Run("current/"+rel, func(t *testing.T) {
			g := &Git{Dir: at(rel), Environ: os.Environ()}
			want, wantOK := gitSays(t, at(rel), "branch", "--show-current")
			got, err := g.CurrentBranch(ctx)
			assert.Equal(t, wantOK, err == nil, "git succeeded: %v, we: %v", wantOK, err)
			if wantOK {
				assert.Equal(t, want, got)
			}
			_, plain := discoverGit(at(rel), listLookup(os.Environ()))
			if plain == discoverWorkTree {
				_, read := g.headBranch(ctx)
				assert.True(t, read, "a plain layout's HEAD is read without git")
			}
		})
	}
	for _, dir := range []string{"repo", "wt", "sep"} {
		for _, branch := range []string{"main", "side", "lane/x/wu-1", "rel", "packed/one", "feature/deep/name",
			"feature/deep", "feature", "loose-after-pack", "missing", "main/sub", "a..b", "HEAD", ".hidden"} {
			t.Run("exists/"+dir+"/"+branch, func(t *testing.T) {
				g := &Git{Dir: at(dir), Environ: os.Environ()}
				_, want := gitSays(t, at(dir), "rev-parse", "--verify", "--quiet", "refs/heads/"+branch)
				assert.Equal(t, want, g.BranchExists(ctx, branch))
				if plainBranchName(branch) {
					_, read := g.branchExists(ctx, branch)
					assert.True(t, read, "a plain branch name is read without git")
				}
			})
		}
	}
}

// TestRefsLeftToGit: where the refs may not be files, or git reads them through a
// namespace, or the environment git starts from is unknown, the files are not read.
func TestRefsLeftToGit(t *testing.T) {
	isolateGit(t)
	root := gitLayout(t)
	repo := filepath.Join(root, "repo")
	g := &Git{Dir: repo, Environ: os.Environ()}
	_, ok := g.headBranch(context.Background())
	require.True(t, ok)

	ns := &Git{Dir: repo, Environ: append(os.Environ(), "GIT_NAMESPACE=team")}
	_, ok = ns.branchExists(context.Background(), "main")
	assert.False(t, ok, "GIT_NAMESPACE")

	unknown := &Git{Dir: repo}
	_, ok = unknown.headBranch(context.Background())
	assert.False(t, ok, "no environment known: git decides, in the one it inherits")

	require.NoError(t, os.Mkdir(filepath.Join(repo, ".git", "reftable"), 0o755))
	_, ok = g.headBranch(context.Background())
	assert.False(t, ok, "a reftable directory")

	for _, name := range []string{"", "-x", "x/", "x.lock", "x.", "a//b", "a@{1}", "a b", "a~1", "a:b", ".x", "x/.y", ".invalid"} {
		assert.False(t, plainBranchName(name), name)
	}
	for _, name := range []string{"main", "lane/core-api/wu-12", "v1.2", "x@y"} {
		assert.True(t, plainBranchName(name), name)
	}
}
