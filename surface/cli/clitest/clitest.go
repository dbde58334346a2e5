// Package clitest runs the command line in a test's process: a workspace to run it on,
// its Output read back, `serve` started and stopped, an embedded nats-server for the
// commands that reach a broker. surface/cli's own tests and the integration tests share
// it; only tests import it.
package clitest

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Workspace is an empty workspace but for a.txt ("hello\nworld\n").
func Workspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello\nworld\n"), 0o644))
	return ws
}

// DecodeOutput reads the tool.Output a command printed.
func DecodeOutput(t *testing.T, s string) tool.Output {
	t.Helper()
	var out tool.Output
	require.NoError(t, json.Unmarshal([]byte(s), &out), s)
	return out
}

// StartServe runs `cmdbridge serve --buffered-evidence [flags]` in-process on ws and
// returns its URL and a function that waits (bounded) for it to stop, giving its exit
// status and stderr. The test stops it (SIGTERM to this process, which serve catches).
func StartServe(t *testing.T, ws string, host cli.Host, flags ...string) (url string, exited func(t *testing.T) (int, string)) {
	t.Helper()
	pr, pw := io.Pipe()
	var errb strings.Builder
	done := make(chan int, 1)
	go func() {
		code := cli.Main(append([]string{"cmdbridge", "--workspace", ws, "serve", "--buffered-evidence"}, flags...), pw, &errb, host)
		pw.Close()
		done <- code
	}()
	lines := bufio.NewReader(pr)
	line, err := lines.ReadString('\n')
	require.NoError(t, err, "serve printed no URL")
	go func() { _, _ = io.Copy(io.Discard, lines) }()
	return strings.TrimSpace(line), func(t *testing.T) (int, string) {
		t.Helper()
		select {
		case code := <-done:
			return code, errb.String()
		case <-time.After(15 * time.Second):
			t.Fatal("serve did not stop on SIGTERM")
			return -1, ""
		}
	}
}

// StartNATS starts an embedded nats-server with opts (quiet, no signal handlers) and
// stops it when the test ends.
func StartNATS(t *testing.T, opts *server.Options) *server.Server {
	t.Helper()
	opts.NoLog, opts.NoSigs = true, true
	ns, err := server.NewServer(opts)
	require.NoError(t, err)
	go ns.Start()
	require.True(t, ns.ReadyForConnections(10*time.Second))
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	return ns
}
