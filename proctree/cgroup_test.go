package proctree_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/proctree"
	"github.com/cmdbridge/cmdbridge/proctree/proctreetest"
)

// TestRedTeamCgroupKillsEnvClearedDaemon: a daemon that calls setsid, clears its
// environment (so it carries no mark) and double-forks (so no parent link leads to it)
// outlived its timed-out call before the tree had a cgroup. With one, nothing whose
// command line carries the test's marker is left once the call has ended.
func TestRedTeamCgroupKillsEnvClearedDaemon(t *testing.T) {
	proctreetest.RequireCgroup2(t)
	marker := newMarker()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", proctreetest.EnvClearedDaemon(marker)+"\nsleep 300")
	cmd.Dir = dir
	tree := proctree.Attach(cmd)
	require.NoError(t, cmd.Start())
	proctreetest.WaitForMarker(t, marker)
	cancel() // the call's end (a deadline ends it the same way)
	_ = cmd.Wait()
	tree.Kill()
	assert.Empty(t, proctreetest.WithMarker(marker), "no process of the call is left")
	if assert.NotEmpty(t, tree.Cgroup(), "the tree ran in its own cgroup") {
		_, err := os.Stat(tree.Cgroup())
		assert.ErrorIs(t, err, os.ErrNotExist, "the tree's cgroup is removed")
	}
}

// TestRedTeamCgroupKillsEnvClearedDaemonAfterExit: the command exits at once, leaving
// the daemon; the Kill every lane makes after the command ends kills it.
func TestRedTeamCgroupKillsEnvClearedDaemonAfterExit(t *testing.T) {
	proctreetest.RequireCgroup2(t)
	marker := newMarker()
	cmd := exec.CommandContext(context.Background(), "/bin/sh", "-c", proctreetest.EnvClearedDaemon(marker))
	cmd.Dir = t.TempDir()
	tree := proctree.Attach(cmd)
	require.NoError(t, cmd.Run())
	proctreetest.WaitForMarker(t, marker)
	assert.Positive(t, tree.Kill())
	assert.Empty(t, proctreetest.WithMarker(marker), "no process of the call is left")
}

func TestCgroup2DirIsThisProcessCgroup(t *testing.T) {
	dir := proctree.Cgroup2Dir()
	if dir == "" {
		t.Skip("host capability missing: no cgroup2 mount holding this process (/proc/self/mountinfo, /proc/self/cgroup)")
	}
	_, err := os.Stat(filepath.Join(dir, "cgroup.procs"))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	require.NoError(t, err)
	assert.Contains(t, string(b), itoa(os.Getpid()))
}

func newMarker() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "cmdbridge-marker-" + hex.EncodeToString(b[:])
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestKernelAtLeast(t *testing.T) {
	assert.True(t, proctree.KernelAtLeast(2, 6), "any kernel this runs on")
	assert.False(t, proctree.KernelAtLeast(99, 0))
}
