package proctree_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/proctree"
)

// daemonScript double-forks a daemon that leaves the process group (setsid), ignores
// SIGTERM and writes its pid to daemon.pid, then waits in the foreground.
const daemonScript = `setsid sh -c 'trap "" TERM; echo $$ > daemon.pid; exec sleep 300' </dev/null >/dev/null 2>&1 &
while [ ! -s daemon.pid ]; do sleep 0.01; done
sleep 300`

func TestCancelKillsDoubleForkedDaemon(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", daemonScript)
	cmd.Dir = dir
	tree := proctree.Attach(cmd)
	require.NoError(t, cmd.Start())
	pid := daemonPID(t, dir)
	cancel()
	err := cmd.Wait()
	require.Error(t, err, "the shell was killed")
	tree.Kill()
	requireGone(t, pid)
}

func TestKillAfterExitEndsLeftovers(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.CommandContext(context.Background(), "/bin/sh", "-c",
		`setsid sh -c 'trap "" TERM; echo $$ > daemon.pid; exec sleep 300' </dev/null >/dev/null 2>&1 &
while [ ! -s daemon.pid ]; do sleep 0.01; done`)
	cmd.Dir = dir
	tree := proctree.Attach(cmd)
	require.NoError(t, cmd.Run(), "the command itself exits 0 and leaves the daemon behind")
	pid := daemonPID(t, dir)
	assert.True(t, proctree.Alive(pid), "the daemon outlives its parent until the tree is killed")
	assert.Positive(t, tree.Kill())
	requireGone(t, pid)
}

// TestGroupKillAloneMissesTheDaemon is the control: killing only the process group, as
// the lanes did before, leaves the setsid daemon running. It proves the scenario of the
// tests above is real.
func TestGroupKillAloneMissesTheDaemon(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", daemonScript)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	require.NoError(t, cmd.Start())
	pid := daemonPID(t, dir)
	cancel()
	_ = cmd.Wait()
	assert.True(t, proctree.Alive(pid), "a group kill does not reach a process that called setsid")
}

func TestMarkIsInheritedAndUnique(t *testing.T) {
	a := proctree.Attach(exec.CommandContext(context.Background(), "true"))
	b := proctree.Attach(exec.CommandContext(context.Background(), "true"))
	assert.NotEqual(t, a.Mark(), b.Mark())
	assert.True(t, strings.HasPrefix(a.Mark(), proctree.MarkPrefix))
	cmd := exec.CommandContext(context.Background(), "/bin/sh", "-c", "sh -c env")
	tree := proctree.Attach(cmd)
	out, err := cmd.Output()
	require.NoError(t, err)
	assert.Contains(t, strings.Split(string(out), "\n"), tree.Mark())
	assert.Equal(t, 0, proctree.Attach(exec.CommandContext(context.Background(), "true")).Kill(), "not started: nothing to kill")
}

// daemonPID waits (bounded) for the daemon's pid file and registers a cleanup that
// kills the daemon whatever the test's outcome.
func daemonPID(t *testing.T, dir string) int {
	t.Helper()
	var pid int
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(filepath.Join(dir, "daemon.pid"))
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && pid > 0
	}, 20*time.Second, 10*time.Millisecond, "the daemon never wrote its pid")
	t.Cleanup(func() {
		if proctree.Alive(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return pid
}

func requireGone(t *testing.T, pid int) {
	t.Helper()
	require.Eventually(t, func() bool { return !proctree.Alive(pid) }, 10*time.Second, 10*time.Millisecond,
		"daemon %d still running", pid)
}

// BenchmarkKillAfterExit is the cost a lane pays per call: one Kill of a tree whose
// command has exited and left nothing behind (two scans of /proc).
func BenchmarkKillAfterExit(b *testing.B) {
	cmd := exec.CommandContext(context.Background(), "true")
	tree := proctree.Attach(cmd)
	require.NoError(b, cmd.Run())
	for b.Loop() {
		tree.Kill()
	}
}
