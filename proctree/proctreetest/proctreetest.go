// Package proctreetest holds the escaped-daemon scenario the process-tree tests of
// several packages share: a command that double-forks a daemon which leaves its process
// group (setsid), ignores SIGTERM and records its pid, and the bounded checks that the
// daemon is gone afterwards. Every daemon a test starts is killed when the test ends,
// whatever its outcome.
package proctreetest

import (
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
