package delivery

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/internal/gittest"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestNewGitTakesTheRuntimeEnvironment(t *testing.T) {
	rt, err := NewRuntime("/", tool.EnvFromMap(map[string]string{"HOME": "/h", "DELIVERY_NOW": "2026-03-02T18:37:08.384Z", "OTHER": "x"}))
	require.NoError(t, err)
	g := NewGit("/d", rt)
	assert.Equal(t, []string{"HOME=/h"}, g.Environ)
	assert.Equal(t, "2026-03-02T18:37:08.384Z", g.Now)
	rt.SetEnviron(func() []string { return []string{"ALL=1"} })
	assert.Equal(t, []string{"ALL=1"}, NewGit("/d", rt).Environ)
}

// TestNativeDiscoveryIgnoresTheProcessEnvironment: on a native call's context, git
// discovery and the git it falls back to read the call's GIT_* variables, never the
// host's.
func TestNativeDiscoveryIgnoresTheProcessEnvironment(t *testing.T) {
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	root := realTemp(t)
	repo := filepath.Join(root, "repo")
	plain := filepath.Join(root, "plain")
	for _, d := range []string{repo, plain} {
		writeFile(t, filepath.Join(d, "f"), "x\n")
	}
	gittest.Init(t, repo)
	// The host points git elsewhere; the call does not.
	t.Setenv("GIT_DIR", filepath.Join(root, "nowhere"))
	call := map[string]string{"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}
	native := tool.ContextWithEnv(context.Background(), &tool.Env{LookupEnv: tool.EnvFromMap(call)})
	assert.True(t, gitrepo.InWorkTree(native, repo))
	assert.False(t, gitrepo.InWorkTree(native, plain))
	assert.Equal(t, repo, gitrepo.MainCheckout(native, repo, tool.EnvFromMap(call)))
	branch, err := (&gitrepo.Git{Dir: repo}).CurrentBranch(native)
	require.NoError(t, err)
	assert.Equal(t, "main", branch)

	// The call's own GIT_DIR and GIT_WORK_TREE make plain a work tree of repo's git
	// directory: discovery leaves it to git, which gets them.
	call["GIT_DIR"], call["GIT_WORK_TREE"] = filepath.Join(repo, ".git"), plain
	assert.True(t, gitrepo.InWorkTree(native, plain))
	rt, err := NewRuntime(plain, tool.EnvFromMap(call))
	require.NoError(t, err)
	assert.True(t, rt.InWorkTree(context.Background(), plain))
	out, err := NewGit(plain, rt).Output(context.Background(), "rev-parse", "--git-dir")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(repo, ".git"), strings.TrimSpace(out))
}
