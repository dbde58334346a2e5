package cli_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/surface/cli/clitest"
	"github.com/cmdbridge/cmdbridge/surface/cli/conductor"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
)

// TestRedTeamConductorWitnessCatchesARewind: serve --nats publishes its evidence heads,
// conductor witness keeps them, conductor checkpoints exports them, and evidence verify
// --published passes on the log as it is and fails once the workspace rewinds its
// records and checkpoints together (which its own directory cannot tell).
func TestRedTeamConductorWitnessCatchesARewind(t *testing.T) {
	ns := clitest.StartNATS(t, &server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir()})

	ws, cp := t.TempDir(), t.TempDir()
	host := serveHost(t, make(chan struct{}, 1))
	host.Subcommands = append(host.Subcommands, conductor.Command()) // the control plane, as cmd/cmdbridge has it
	run := func(dir string, args ...string) (string, string, int) {
		var out, errb strings.Builder
		code := cli.Main(append([]string{"cmdbridge", "--workspace", dir}, args...), &out, &errb, host)
		return out.String(), errb.String(), code
	}
	_, errs, code := run(cp, "conductor", "provision", "--nats", ns.ClientURL())
	require.Equal(t, 0, code, errs)
	enrollTok, _, err := token.Mint(bytes.Repeat([]byte{9}, token.KeySize), token.MintOptions{Subject: "ws-7", Tools: []string{}, TTL: time.Hour})
	require.NoError(t, err)
	_, errs, code = run(ws, "enroll", enrollTok)
	require.Equal(t, 0, code, errs)
	out, errs, code := run(ws, "token", "mint", "--subject", "control", "--tools", "s:*", "--read", ".", "--ttl", "1h")
	require.Equal(t, 0, code, errs)
	tok := strings.TrimSpace(out)

	url, exited := clitest.StartServe(t, ws, host, "--nats", ns.ClientURL())
	for range 3 {
		req, err := http.NewRequest("POST", url+"/tools/s:echo", strings.NewReader(`{"text":"x"}`))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, 200, resp.StatusCode)
	}
	// The quiet-period head (3 records) is published a second after the last call.
	out, errs, code = run(cp, "conductor", "witness", "--nats", ns.ClientURL(), "--count", "1", "--for", "60s")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, `"workspace":"ws-7"`)
	assert.Contains(t, out, `"n":3`)
	require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGTERM))
	code, stderr := exited(t)
	require.Equal(t, 0, code, stderr)

	out, errs, code = run(cp, "conductor", "checkpoints", "ws-7")
	require.Equal(t, 0, code, errs)
	export := filepath.Join(t.TempDir(), "ws-7.jsonl")
	require.NoError(t, os.WriteFile(export, []byte(out), 0o600))
	out, errs, code = run(ws, "evidence", "verify", "--published", export)
	require.Equal(t, 0, code, out+errs)

	dir := filepath.Join(ws, ".cmdbridge", "evidence")
	require.NoError(t, os.WriteFile(filepath.Join(dir, evidence.ReceiptsFile), nil, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, evidence.CheckpointsFile), nil, 0o644))
	out, _, code = run(ws, "evidence", "verify")
	require.Equal(t, 0, code, "on its own, the emptied log is consistent: %s", out)
	out, _, code = run(ws, "evidence", "verify", "--published", export)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, evidence.Truncated)
}
