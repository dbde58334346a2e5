package adapter

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/proctree"
)

// TestRunSubprocessTimeoutKillsEscapedDaemon: the subprocess lane's binary double-forks
// a daemon that leaves the process group (setsid) and ignores SIGTERM, then outlives the
// call's deadline. When the lane reports the timeout, the daemon must be gone too.
func TestRunSubprocessTimeoutKillsEscapedDaemon(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "delivery")
	require.NoError(t, os.WriteFile(bin, []byte(`#!/bin/sh
setsid sh -c 'trap "" TERM; echo $$ > daemon.pid; exec sleep 300' </dev/null >/dev/null 2>&1 &
while [ ! -s daemon.pid ]; do sleep 0.01; done
sleep 300
`), 0o755))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	res := RunSubprocess(ctx, commands.Command{Name: "daemon"}, nil, Options{Binary: bin, Dir: dir})
	assert.Equal(t, TimedOut, res.Status)
	assert.Equal(t, ExitTimeout, res.ExitCode)
	b, err := os.ReadFile(filepath.Join(dir, "daemon.pid"))
	require.NoError(t, err, "the daemon started before the deadline")
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	t.Cleanup(func() {
		if proctree.Alive(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	require.Eventually(t, func() bool { return !proctree.Alive(pid) }, 10*time.Second, 10*time.Millisecond,
		"daemon %d outlived the call", pid)
}

func BenchmarkRunSubprocessTrue(b *testing.B) {
	c := commands.Command{Name: "true"}
	for b.Loop() {
		if r := RunSubprocess(context.Background(), c, nil, Options{Binary: "/usr/bin/env"}); r.ExitCode != 0 {
			b.Fatalf("exit %d: %s", r.ExitCode, r.Stderr)
		}
	}
}
