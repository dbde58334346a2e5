package adapter

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// What a main sets with os.Setenv (a .env loader, say) lasts as long as its run: the
// host's environment is the same after it, and a subprocess started during the run
// inherits the host's environment, not the run's.
func TestEnvironmentEndsWithTheRun(t *testing.T) {
	t.Setenv("ENVTEST_KEPT", "host")
	require.NoError(t, os.Unsetenv("ENVTEST_ADDED"))
	before := os.Environ()
	var during []string
	c := legacy.Command{
		Name: "setenv",
		New:  func() *cli.App { return &cli.App{Name: "setenv"} },
		Main: func(context.Context) {
			_ = os.Setenv("ENVTEST_ADDED", "run")
			_ = os.Setenv("ENVTEST_KEPT", "run")
			during = hostEnviron()
			fmt.Println(os.Getenv("ENVTEST_ADDED"), os.Getenv("ENVTEST_KEPT"))
		},
	}
	res := Run(context.Background(), c, nil, Config{})
	require.Equal(t, 0, res.ExitCode, "%s", res.Stderr)
	assert.Equal(t, "run run\n", string(res.Stdout), "the run sees what it set")
	_, added := os.LookupEnv("ENVTEST_ADDED")
	assert.False(t, added, "a variable the run added is gone")
	assert.Equal(t, "host", os.Getenv("ENVTEST_KEPT"), "a variable the run changed is back")
	slices.Sort(before)
	after := os.Environ()
	slices.Sort(after)
	assert.Equal(t, before, after)
	slices.Sort(during)
	assert.Equal(t, before, during, "subprocesses started during the run inherit the host's environment")
}
