package proctree_test

import (
	"context"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/proctree"
	"github.com/cmdbridge/cmdbridge/proctree/proctreetest"
)

// TestFallbackWithoutCgroupUsesMarks: without a writable cgroup v2 hierarchy the tree
// has no cgroup and Kill finds the tree by its group, parent links and marks: a setsid
// daemon that kept its environment dies.
func TestFallbackWithoutCgroupUsesMarks(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.CommandContext(context.Background(), "/bin/sh", "-c", proctreetest.Spawn)
	cmd.Dir = dir
	tree := proctree.AttachUnder(cmd, t.TempDir()+"/not-a-cgroup/below") // mkdir fails: the fallback
	require.Empty(t, tree.Cgroup())
	require.NoError(t, cmd.Run())
	pid := proctreetest.DaemonPID(t, dir)
	assert.Positive(t, tree.Kill())
	proctreetest.RequireGone(t, pid, "the marked tree")
}

// TestFallbackMissesEnvClearedDaemon states what escapes the fallback, as the package
// doc and docs/sandbox.md say: a daemon that cleared its environment (no mark), left
// the group (setsid) and its parent (double fork) survives Kill. It is the control for
// TestRedTeamCgroupKillsEnvClearedDaemon.
func TestFallbackMissesEnvClearedDaemon(t *testing.T) {
	marker := "cmdbridge-fallback-" + t.Name()
	cmd := exec.CommandContext(context.Background(), "/bin/sh", "-c", proctreetest.EnvClearedDaemon(marker))
	cmd.Dir = t.TempDir()
	tree := proctree.AttachUnder(cmd, "")
	require.NoError(t, cmd.Run())
	proctreetest.WaitForMarker(t, marker)
	tree.Kill()
	assert.NotEmpty(t, proctreetest.WithMarker(marker), "without a cgroup the env-cleared setsid daemon escapes")
}
