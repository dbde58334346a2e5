package adapter

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/proctree/proctreetest"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// TestRunSubprocessTimeoutKillsEscapedDaemon: the subprocess lane's binary double-forks
// a daemon that leaves the process group (setsid) and ignores SIGTERM, then outlives the
// call's deadline. When the lane reports the timeout, the daemon must be gone too.
func TestRunSubprocessTimeoutKillsEscapedDaemon(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "delivery")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"+proctreetest.Script+"\n"), 0o755))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	res := RunSubprocess(ctx, legacy.Command{Name: "daemon"}, nil, Config{Binary: bin, Dir: dir})
	assert.Equal(t, TimedOut, res.Status)
	assert.Equal(t, ExitTimeout, res.ExitCode)
	proctreetest.RequireDaemonGone(t, dir, "the call")
}

func BenchmarkRunSubprocessTrue(b *testing.B) {
	c := legacy.Command{Name: "true"}
	for b.Loop() {
		if r := RunSubprocess(context.Background(), c, nil, Config{Binary: "/usr/bin/env"}); r.ExitCode != 0 {
			b.Fatalf("exit %d: %s", r.ExitCode, r.Stderr)
		}
	}
}
