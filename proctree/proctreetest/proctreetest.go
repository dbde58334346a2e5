// Package proctreetest holds the escaped-daemon scenario the process-tree tests of
// several packages share: a command that double-forks a daemon which leaves its process
// group (setsid), ignores SIGTERM and records its pid, and the bounded checks that the
// daemon is gone afterwards. Every daemon a test starts is killed when the test ends,
// whatever its outcome.
package proctreetest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/proctree"
)

// PIDFile is the file, in the command's directory, where the daemon writes its pid.
const PIDFile = "daemon.pid"

// Spawn starts the daemon and returns once it has written its pid.
const Spawn = `setsid sh -c 'trap "" TERM; echo $$ > ` + PIDFile + `; exec sleep 300' </dev/null >/dev/null 2>&1 &
while [ ! -s ` + PIDFile + ` ]; do sleep 0.01; done`

// Script is Spawn, then a foreground wait that only a kill or a timeout ends.
const Script = Spawn + "\nsleep 300"

// DaemonPID waits (bounded) for the daemon's pid in dir and registers a cleanup that
// kills the daemon whatever the test's outcome.
func DaemonPID(t testing.TB, dir string) int {
	t.Helper()
	var pid int
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(filepath.Join(dir, PIDFile))
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

// RequireGone waits (bounded: a failure, not a hang) until pid no longer runs.
func RequireGone(t testing.TB, pid int, what string) {
	t.Helper()
	require.Eventually(t, func() bool { return !proctree.Alive(pid) }, 10*time.Second, 10*time.Millisecond,
		"daemon %d outlived %s", pid, what)
}

// RequireDaemonGone is DaemonPID then RequireGone: the daemon the command in dir started
// must be gone.
func RequireDaemonGone(t testing.TB, dir, what string) {
	t.Helper()
	RequireGone(t, DaemonPID(t, dir), what)
}

// EnvClearedDaemon is a shell line that starts a daemon which leaves its process group
// (setsid), clears its environment (env -i: no tree mark) and is double-forked (a
// subshell that exits at once: no parent link to it), then waits until the daemon is
// up. The daemon carries marker in its command line and in its (new) environment, as
// CMDBRIDGE_TEST_MARKER: see [WithMarker].
func EnvClearedDaemon(marker string) string {
	return `( setsid env -i CMDBRIDGE_TEST_MARKER=` + marker + ` sh -c 'sleep 300' ` + marker +
		` </dev/null >/dev/null 2>&1 & )`
}

// WithMarker lists the live processes whose command line or environment holds marker.
func WithMarker(marker string) []int { return withMarker(marker, "cmdline", "environ") }

// withMarker lists the live processes where one of the /proc files holds marker.
func withMarker(marker string, files ...string) []int {
	ents, _ := os.ReadDir("/proc")
	self := os.Getpid()
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || !proctree.Alive(pid) {
			continue
		}
		for _, f := range files {
			b, _ := os.ReadFile("/proc/" + e.Name() + "/" + f)
			if bytes.Contains(b, []byte(marker)) {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// WaitForMarker waits (bounded) until the daemon runs with its cleared environment (the
// marker in its environment, not only on the command line of the setsid that starts
// it), and registers a cleanup that kills every process carrying marker whatever the
// test's outcome.
func WaitForMarker(t testing.TB, marker string) {
	t.Helper()
	t.Cleanup(func() {
		for _, pid := range WithMarker(marker) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	require.Eventually(t, func() bool { return len(withMarker("CMDBRIDGE_TEST_MARKER="+marker, "environ")) > 0 }, 20*time.Second, 10*time.Millisecond,
		"the daemon carrying %s never started", marker)
}

// RequireCgroup2 skips the test, naming the missing host capability, unless this
// process's cgroup v2 directory exists and a child cgroup with cgroup.kill or
// cgroup.freeze can be made in it.
func RequireCgroup2(t testing.TB) {
	t.Helper()
	dir := proctree.Cgroup2Dir()
	if dir == "" {
		t.Skip("host capability missing: cgroup v2 (no cgroup2 mount holds this process; see /proc/self/mountinfo)")
	}
	probe, err := os.MkdirTemp(dir, "cmdbridge-probe-")
	if err != nil {
		t.Skipf("host capability missing: a writable cgroup v2 hierarchy (cannot create a child cgroup in %s: %v)", dir, err)
	}
	defer os.Remove(probe)
	for _, f := range []string{"cgroup.kill", "cgroup.freeze"} {
		if _, err := os.Stat(filepath.Join(probe, f)); err == nil {
			return
		}
	}
	t.Skipf("host capability missing: cgroup.kill or cgroup.freeze in %s (Linux 5.2+)", dir)
}
