package gitrepo

import (
	"context"
	"slices"
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
		EnvironOf(env))
	assert.NotNil(t, EnvironOf(tool.EnvFromMap(nil)), "an empty environment, not the inherited one")
	for _, k := range gitDiscoveryEnv {
		assert.True(t, slices.Contains(gitEnvVars, k), "git gets %s, which discovery reads", k)
	}
}

func TestEnvOfReadsTheContextOnly(t *testing.T) {
	_, _, ok := EnvOf(context.Background())
	assert.False(t, ok)

	native := tool.ContextWithEnv(context.Background(), &tool.Env{LookupEnv: tool.EnvFromMap(map[string]string{"HOME": "/h", "X": "1"})})
	lookup, environ, ok := EnvOf(native)
	require.True(t, ok)
	assert.Equal(t, []string{"HOME=/h"}, environ)
	v, _ := lookup("X")
	assert.Equal(t, "1", v)

	legacy := WithEnv(native, tool.EnvFromMap(nil), func() []string { return []string{"A=1", "B=2"} })
	_, environ, ok = EnvOf(legacy)
	require.True(t, ok)
	assert.Equal(t, []string{"A=1", "B=2"}, environ, "the whole list wins over a native Env below it")

	g := &Git{Env: []string{"E=1"}}
	assert.Nil(t, (&Git{}).environ(context.Background(), nil), "no environment known, nothing to add: git inherits")
	assert.Equal(t, []string{"E=1", "D=2"}, g.environ(context.Background(), []string{"D=2"}))
	assert.Equal(t, []string{"HOME=/h", "E=1"}, g.environ(native, nil))
	g.Environ = []string{"OWN=1"}
	assert.Equal(t, []string{"OWN=1", "E=1"}, g.environ(legacy, nil))
}
