package wu_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/wu"
	"github.com/cmdbridge/cmdbridge/parity"
	"github.com/cmdbridge/cmdbridge/proctree/proctreetest"
)

// TestSandboxTimeoutKillsEscapedDaemon runs wu:sandbox on the adapter lane (in process,
// the default lane) with a command that double-forks a daemon which leaves the process
// group (setsid) and ignores SIGTERM, then outlives --timeout. When the call reports the
// timeout, the daemon must be gone too.
func TestSandboxTimeoutKillsEscapedDaemon(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "acme")
	require.NoError(t, parity.CopyTree(filepath.Join("..", "..", "testdata", "workspaces", "acme"), ws, nil))
	t.Setenv("DELIVERY_WORKSPACE", "")
	require.NoError(t, os.Unsetenv("DELIVERY_WORKSPACE"))
	c, ok := commands.Default.Lookup("wu:sandbox")
	require.True(t, ok)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res := adapter.Run(ctx, c, []string{"--id", "WU-1", "--timeout", "2s", "--json", "--", "sh", "-c",
		proctreetest.Script}, adapter.Config{Dir: ws})
	assert.Equal(t, 1, res.ExitCode, "stderr: %s", res.Stderr)
	assert.Contains(t, string(res.Stdout), `"timed_out": true`)
	proctreetest.RequireDaemonGone(t, ws, "the call")
}
