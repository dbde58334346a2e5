package integration_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/commandstest"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/surface/cli/conductor"
	"github.com/cmdbridge/cmdbridge/tool"
)

// corpusHost is the host cmd/cmdbridge runs: the delivery corpus's commands, native
// tools, pack and runtime, and the conductor.
func corpusHost() cli.Host {
	return cli.Host{Pack: commands.Pack, Version: commands.Version, Commands: commands.Default,
		Native: nativetools.Default, Runtime: delivery.ToolRuntime, Program: "delivery", WorkspaceEnv: "DELIVERY_WORKSPACE",
		ScriptEnv: delivery.ScriptEnv, ScriptPassEnv: delivery.ScriptPassEnv, Initialisms: delivery.Initialisms,
		ScaffoldRegistry: "github.com/cmdbridge/cmdbridge/nativetools.Register",
		Extra:            []*ucli.Command{conductor.Command()}} // the control plane, as cmd/cmdbridge has it
}

// run calls the cmdbridge command line over the corpus in the workspace ws and returns
// stdout, stderr and the exit status; the subprocess lane runs the delivery program
// (commandstest).
func run(t *testing.T, ws string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	argv := append([]string{"cmdbridge", "--workspace", ws, "--bin", commandstest.Exe(t)}, args...)
	code := cli.Main(argv, &out, &errb, corpusHost())
	return out.String(), errb.String(), code
}

// workspace is an empty workspace but for a.txt.
func workspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello\nworld\n"), 0o644))
	return ws
}

func decodeOutput(t *testing.T, s string) tool.Output {
	t.Helper()
	var out tool.Output
	require.NoError(t, json.Unmarshal([]byte(s), &out), s)
	return out
}

// TestToolsListRoutesTheMigratedCorpusNative: the corpus's routes.json sends every
// migrated command to the native lane, and tools list shows every command and the 9
// native-only tools.
func TestToolsListRoutesTheMigratedCorpusNative(t *testing.T) {
	stdout, _, code := run(t, workspace(t), "tools", "list", "--json")
	require.Equal(t, 0, code)
	var rows []struct{ Name, Route string }
	require.NoError(t, json.Unmarshal([]byte(stdout), &rows))
	routes := map[string]string{}
	for _, r := range rows {
		routes[r.Name] = r.Route
	}
	for _, c := range commands.All() {
		assert.Equal(t, "native", routes[c.Name], "%s: migrated, routes.json sends it to the native lane", c.Name)
	}
	assert.Equal(t, "native", routes["git:status"])
	assert.Len(t, rows, len(commands.All())+9, "every command plus the 9 native-only tools")
}

// startServe runs `cmdbridge serve --buffered-evidence [flags]` in-process on ws and returns its
// URL and a function that waits (bounded) for it to stop, giving its exit status and
// stderr. The test stops it (SIGTERM to this process, which serve catches).
func startServe(t *testing.T, ws string, host cli.Host, flags ...string) (url string, exited func(t *testing.T) (int, string)) {
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

// startNATS starts an embedded nats-server with opts (quiet, no signal handlers) and
// stops it when the test ends.
func startNATS(t *testing.T, opts *server.Options) *server.Server {
	t.Helper()
	opts.NoLog, opts.NoSigs = true, true
	ns, err := server.NewServer(opts)
	require.NoError(t, err)
	go ns.Start()
	require.True(t, ns.ReadyForConnections(10*time.Second))
	t.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	return ns
}
