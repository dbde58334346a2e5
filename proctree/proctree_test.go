package proctree_test

import (
	"context"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/proctree"
	"github.com/cmdbridge/cmdbridge/proctree/proctreetest"
)

func TestCancelKillsDoubleForkedDaemon(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", proctreetest.Script)
	cmd.Dir = dir
	tree := proctree.Attach(cmd)
	require.NoError(t, cmd.Start())
	pid := proctreetest.DaemonPID(t, dir)
	cancel()
	err := cmd.Wait()
	require.Error(t, err, "the shell was killed")
	tree.Kill()
	proctreetest.RequireGone(t, pid, "the tree")
}

func TestKillAfterExitEndsLeftovers(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.CommandContext(context.Background(), "/bin/sh", "-c", proctreetest.Spawn)
	cmd.Dir = dir
	tree := proctree.Attach(cmd)
	require.NoError(t, cmd.Run(), "the command itself exits 0 and leaves the daemon behind")
	pid := proctreetest.DaemonPID(t, dir)
	assert.True(t, proctree.Alive(pid), "the daemon outlives its parent until the tree is killed")
	assert.Positive(t, tree.Kill())
	proctreetest.RequireGone(t, pid, "the tree")
}

// TestGroupKillAloneMissesTheDaemon is the control: killing only the process group, as
// the lanes did before, leaves the setsid daemon running. It proves the scenario of the
// tests above is real.
func TestGroupKillAloneMissesTheDaemon(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", proctreetest.Script)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	require.NoError(t, cmd.Start())
	pid := proctreetest.DaemonPID(t, dir)
	cancel()
	_ = cmd.Wait()
	assert.True(t, proctree.Alive(pid), "a group kill does not reach a process that called setsid")
}

func TestMarkIsInheritedAndUnique(t *testing.T) {
	a := proctree.Attach(exec.CommandContext(context.Background(), "true"))
	b := proctree.Attach(exec.CommandContext(context.Background(), "true"))
	defer a.Kill() // never started: Kill removes the cgroup Attach made
	defer b.Kill()
	assert.NotEqual(t, a.Mark(), b.Mark())
	assert.True(t, strings.HasPrefix(a.Mark(), proctree.MarkPrefix))
	cmd := exec.CommandContext(context.Background(), "/bin/sh", "-c", "sh -c env")
	tree := proctree.Attach(cmd)
	out, err := cmd.Output()
	tree.Kill()
	require.NoError(t, err)
	assert.Contains(t, strings.Split(string(out), "\n"), tree.Mark())
	assert.Equal(t, 0, proctree.Attach(exec.CommandContext(context.Background(), "true")).Kill(), "not started: nothing to kill")
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

// BenchmarkRun is what one spawned command costs a lane, before and after this
// package's additions, in one run: start /bin/true, wait, Kill. "exec" is the command
// alone, without a tree (the baseline); "marks" is the fallback
// (process group, parent links, marks: two scans of /proc), "cgroup" a tree in its own
// cgroup v2 (mkdir, CLONE_INTO_CGROUP, cgroup.kill, rmdir), "jail" the same inside a
// Jail (bwrap: mount, pid, ipc, cgroup and user namespaces). Sub-benchmarks the host
// cannot run are skipped, naming what is missing.
func BenchmarkRun(b *testing.B) {
	for _, c := range []struct {
		name   string
		parent func() string
		jail   *proctree.Jail
	}{
		{"exec", nil, nil},
		{"marks", func() string { return "" }, nil},
		{"cgroup", proctree.Cgroup2Dir, nil},
		{"jail", proctree.Cgroup2Dir, &proctree.Jail{Hide: []string{b.TempDir()}, ReadOnly: []string{b.TempDir()}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			if c.name == "cgroup" || c.name == "jail" {
				proctreetest.RequireCgroup2(b)
			}
			if c.jail != nil {
				if _, err := exec.LookPath("bwrap"); err != nil {
					b.Skip("host capability missing: bubblewrap (bwrap) on PATH")
				}
			}
			for b.Loop() {
				cmd := exec.CommandContext(context.Background(), "/bin/true")
				require.NoError(b, c.jail.Confine(cmd))
				if c.parent == nil {
					require.NoError(b, cmd.Run())
					continue
				}
				tree := proctree.AttachUnder(cmd, c.parent())
				require.NoError(b, cmd.Run())
				tree.Kill()
			}
		})
	}
}
