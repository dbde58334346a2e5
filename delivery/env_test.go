package delivery

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

func TestEnvironOfTakesTheGitVariablesOfTheLookup(t *testing.T) {
	env := tool.EnvFromMap(map[string]string{
		"PATH": "/call/bin", "HOME": "/call/home", "GIT_CONFIG_GLOBAL": "/dev/null", "SECRET": "x",
		"GIT_CONFIG_COUNT": "2", "GIT_CONFIG_KEY_0": "user.name", "GIT_CONFIG_VALUE_0": "c",
		"GIT_CONFIG_KEY_1": "user.email", "GIT_CONFIG_VALUE_1": "c@example.com", "GIT_CONFIG_KEY_2": "no",
	})
	assert.Equal(t, []string{"PATH=/call/bin", "HOME=/call/home", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_COUNT=2",
		"GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_VALUE_0=c", "GIT_CONFIG_KEY_1=user.email", "GIT_CONFIG_VALUE_1=c@example.com"},
		environOf(env))
	assert.NotNil(t, environOf(tool.EnvFromMap(nil)), "an empty environment, not the inherited one")
	for _, k := range gitDiscoveryEnv {
		assert.True(t, slices.Contains(gitEnvVars, k), "git gets %s, which discovery reads", k)
	}
}

func TestEnvOfReadsTheContextOnly(t *testing.T) {
	_, _, ok := envOf(context.Background())
	assert.False(t, ok)

	native := tool.ContextWithEnv(context.Background(), &tool.Env{LookupEnv: tool.EnvFromMap(map[string]string{"HOME": "/h", "X": "1"})})
	lookup, environ, ok := envOf(native)
	require.True(t, ok)
	assert.Equal(t, []string{"HOME=/h"}, environ)
	v, _ := lookup("X")
	assert.Equal(t, "1", v)

	legacy := WithEnv(native, tool.EnvFromMap(nil), func() []string { return []string{"A=1", "B=2"} })
	_, environ, ok = envOf(legacy)
	require.True(t, ok)
	assert.Equal(t, []string{"A=1", "B=2"}, environ, "the whole list wins over a native Env below it")

	g := &Git{Env: []string{"E=1"}}
	assert.Nil(t, (&Git{}).environ(context.Background(), nil), "no environment known, nothing to add: git inherits")
	assert.Equal(t, []string{"E=1", "D=2"}, g.environ(context.Background(), []string{"D=2"}))
	assert.Equal(t, []string{"HOME=/h", "E=1"}, g.environ(native, nil))
	g.Environ = []string{"OWN=1"}
	assert.Equal(t, []string{"OWN=1", "E=1"}, g.environ(legacy, nil))
}

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
	isolateGit(t)
	root := realTemp(t)
	repo := filepath.Join(root, "repo")
	plain := filepath.Join(root, "plain")
	for _, d := range []string{repo, plain} {
		writeFile(t, filepath.Join(d, "f"), "x\n")
	}
	gitInit(t, repo)
	// The host points git elsewhere; the call does not.
	t.Setenv("GIT_DIR", filepath.Join(root, "nowhere"))
	call := map[string]string{"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}
	native := tool.ContextWithEnv(context.Background(), &tool.Env{LookupEnv: tool.EnvFromMap(call)})
	assert.True(t, InWorkTree(native, repo))
	assert.False(t, InWorkTree(native, plain))
	assert.Equal(t, repo, MainCheckout(native, repo, tool.EnvFromMap(call)))
	branch, err := (&Git{Dir: repo}).CurrentBranch(native)
	require.NoError(t, err)
	assert.Equal(t, "main", branch)

	// The call's own GIT_DIR and GIT_WORK_TREE make plain a work tree of repo's git
	// directory: discovery leaves it to git, which gets them.
	call["GIT_DIR"], call["GIT_WORK_TREE"] = filepath.Join(repo, ".git"), plain
	assert.True(t, InWorkTree(native, plain))
	rt, err := NewRuntime(plain, tool.EnvFromMap(call))
	require.NoError(t, err)
	assert.True(t, rt.InWorkTree(context.Background(), plain))
	out, err := NewGit(plain, rt).Output(context.Background(), "rev-parse", "--git-dir")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(repo, ".git"), strings.TrimSpace(out))
}
