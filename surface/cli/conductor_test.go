package cli_test

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/surface/cli/clitest"
	"github.com/cmdbridge/cmdbridge/surface/cli/conductor"
)

// signalWriter is a stderr that says when the first line arrives.
type signalWriter struct {
	mu    sync.Mutex
	b     strings.Builder
	first chan struct{}
	once  sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.once.Do(func() { close(w.first) })
	return w.b.Write(p)
}

// TestConductorDrivesWorkspace is the control plane end to end with real processes'
// code paths: act as the NATS issuer and start a nats-server from the configuration
// it prints (operator mode, JWT auth), provision the streams, issue an enrollment
// token with a name and the workspace's NATS credentials, enroll the workspace with
// both and the control plane's scopes, serve it on the broker, list it (verified,
// named), tail the events of all workspaces, call a tool on it and send it a command —
// neither carrying a token.
func TestConductorDrivesWorkspace(t *testing.T) {
	host := serveHost(t, make(chan struct{}, 1))
	host.Subcommands = append(host.Subcommands, conductor.Command()) // the control plane, as cmd/cmdbridge has it
	in := func(dir string) func(args ...string) (string, string, int) {
		return func(args ...string) (string, string, int) {
			var out, errb strings.Builder
			code := cli.Main(append([]string{"cmdbridge", "--workspace", dir}, args...), &out, &errb, host)
			return out.String(), errb.String(), code
		}
	}
	cpDir, wsDir := t.TempDir(), t.TempDir()
	cp, ws := in(cpDir), in(wsDir)

	out, errs, code := cp("conductor", "nats-config", "--listen", "127.0.0.1:-1", "--store-dir", t.TempDir())
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "resolver: MEMORY")
	conf := filepath.Join(t.TempDir(), "nats.conf")
	require.NoError(t, os.WriteFile(conf, []byte(out), 0o600))
	opts, err := server.ProcessConfigFile(conf)
	require.NoError(t, err)
	ns := clitest.StartNATS(t, opts)
	url := ns.ClientURL()
	again, _, code := cp("conductor", "nats-config", "--listen", "127.0.0.1:-1")
	require.Equal(t, 0, code)
	assert.Contains(t, out, again[strings.Index(again, "operator:"):], "the issuer is made once, then kept")

	out, errs, code = cp("conductor", "provision", "--nats", url)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "ready")
	out, errs, code = cp("conductor", "permissions", "ws-a")
	require.Equal(t, 0, code, errs)
	var perms struct {
		Publish   struct{ Allow []string } `json:"publish"`
		Subscribe struct{ Allow []string } `json:"subscribe"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &perms), out)
	assert.Contains(t, perms.Publish.Allow, "cmdbridge.ws-a.events.>")
	assert.NotContains(t, perms.Publish.Allow, "cmdbridge.ws-a.>")
	assert.Contains(t, perms.Subscribe.Allow, "_INBOX_ws-a.>")
	creds := filepath.Join(t.TempDir(), "ws-a.creds")
	out, errs, code = cp("conductor", "issue", "--subject", "ws-a", "--name", "Ana's box", "--creds", creds)
	require.Equal(t, 0, code, errs)
	enrollTok := strings.TrimSpace(out)
	otherCreds := filepath.Join(t.TempDir(), "ws-b.creds")
	_, errs, code = cp("conductor", "issue", "--subject", "ws-b", "--creds", otherCreds)
	require.Equal(t, 0, code, errs)
	_, errs, code = ws("enroll", enrollTok, "--creds", otherCreds)
	require.NotEqual(t, 0, code, "another workspace's credentials are refused")
	assert.Contains(t, errs, "not workspace")
	_, errs, code = ws("enroll", enrollTok, "--creds", creds, "--control-tools", "s:*", "--control-read", ".")
	require.Equal(t, 0, code, errs)

	_, exited := clitest.StartServe(t, wsDir, host, "--nats", url)

	out, errs, code = cp("conductor", "workspaces", "--nats", url, "--listen", "1s")
	require.Equal(t, 0, code, errs)
	var row map[string]any
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(out)), &row), out)
	assert.Equal(t, "ws-a", row["subject"])
	assert.Equal(t, "Ana's box", row["name"], "the registry name the control plane recorded")
	assert.Equal(t, true, row["verified"], row["why"])
	assert.Contains(t, row["tools"], "s:echo")

	// The tail stops by itself after the two events this test causes.
	tailErr := &signalWriter{first: make(chan struct{})}
	pr, pw := io.Pipe()
	tailDone := make(chan int, 1)
	go func() {
		code := cli.Main([]string{"cmdbridge", "--workspace", cpDir, "conductor", "tail", "--nats", url, "--durable", "cp", "--for", "30s", "--count", "2"}, pw, tailErr, host)
		pw.Close()
		tailDone <- code
	}()
	lines := make(chan string, 8)
	go func() {
		b, _ := io.ReadAll(pr)
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			lines <- l
		}
		close(lines)
	}()
	select {
	case <-tailErr.first:
	case <-time.After(15 * time.Second):
		t.Fatal("tail did not get ready")
	}

	out, errs, code = cp("conductor", "call", "--nats", url, "--to", "ws-a", "s:echo", "--input", `{"text":"remote"}`)
	require.Equal(t, 0, code, out+errs)
	assert.Contains(t, out, `"remote"`)
	_, errs, code = cp("conductor", "send", "--nats", url, "--to", "ws-a", "--command", "pause", "--args", `{"minutes":5}`)
	require.Equal(t, 0, code, errs)

	select {
	case code := <-tailDone:
		assert.Equal(t, 0, code, tailErr.b.String())
	case <-time.After(30 * time.Second):
		t.Fatal("tail did not stop after two events")
	}
	kinds := map[string]map[string]any{}
	for l := range lines {
		var ev map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &ev), l)
		kinds[ev["event"].(map[string]any)["kind"].(string)] = ev
	}
	require.Contains(t, kinds, "agent-runtime:tool_called")
	require.Contains(t, kinds, "conductor:command")
	for _, ev := range kinds {
		assert.Equal(t, "ws-a", ev["from"])
		assert.Equal(t, "ws-a", ev["workspace"])
		assert.Equal(t, "Ana's box", ev["name"])
	}
	assert.Equal(t, true, kinds["conductor:command"]["durable"])
	assert.Equal(t, "ws-a", kinds["conductor:command"]["event"].(map[string]any)["channel"], "addressed to the workspace by default")

	require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGTERM))
	code, stderr := exited(t)
	assert.Equal(t, 0, code, stderr)
}
