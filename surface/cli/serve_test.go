package cli_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/hostconfig"
	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/surface/cli/clitest"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

type serveEchoIn struct {
	Text string `json:"text,omitempty"`
}

// serveHost is a private registry: a fast read tool and one that runs until cancelled.
func serveHost(t *testing.T, started chan<- struct{}) cli.Host {
	reg := native.NewRegistry()
	require.NoError(t, reg.Add(native.New(tool.Spec{Name: "s:echo", Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, in serveEchoIn) tool.Output { return tool.OK(in.Text) })))
	require.NoError(t, reg.Add(native.New(tool.Spec{Name: "s:slow", Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, in struct{}) tool.Output {
			started <- struct{}{}
			<-ctx.Done()
			return tool.Fail(tool.CodeCancelled, "%v", ctx.Err())
		})))
	return cli.Host{Config: hostconfig.Config{Commands: legacy.NewRegistry(), Native: reg}}
}

func TestTokenMintVerifyRotate(t *testing.T) {
	ws := t.TempDir()
	host := serveHost(t, make(chan struct{}, 1))
	run := func(args ...string) (string, string, int) {
		var out, errb strings.Builder
		code := cli.Main(append([]string{"cmdbridge", "--workspace", ws}, args...), &out, &errb, host)
		return out.String(), errb.String(), code
	}
	out, errs, code := run("token", "mint", "--subject", "ws-1:phone:dev-1", "--tools", "wu:*,git:status", "--read", ".", "--ttl", "1h")
	require.Equal(t, 0, code, errs)
	tok := strings.TrimSpace(out)
	assert.Equal(t, 1, strings.Count(out, "\n"))
	assert.True(t, strings.HasPrefix(tok, "cb1."))

	out, errs, code = run("token", "verify", tok)
	require.Equal(t, 0, code, errs)
	var claims map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &claims))
	assert.Equal(t, "ws-1:phone:dev-1", claims["sub"])
	assert.Equal(t, []any{"wu:*", "git:status"}, claims["tools"])

	_, errs, code = run("token", "mint", "--subject", "ws-1:phone:", "--tools", "*")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "phone")

	_, errs, code = run("token", "rotate")
	require.Equal(t, 0, code, errs)
	_, errs, code = run("token", "verify", tok)
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "bad signature")
}

func TestServeRefusesRemoteAddress(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0"} {
		var out, errb strings.Builder
		code := cli.Main([]string{"cmdbridge", "--workspace", t.TempDir(), "serve", "--addr", addr}, &out, &errb, serveHost(t, nil))
		assert.Equal(t, 2, code, addr)
		assert.Contains(t, errb.String(), "--allow-remote", addr)
	}
}

// TestServeStartsAndStopsOnSignal runs the command in-process: it prints its URL,
// serves a call, and on SIGTERM cancels the call in flight and returns 0.
func TestServeStartsAndStopsOnSignal(t *testing.T) {
	ws := t.TempDir()
	started := make(chan struct{}, 1)
	host := serveHost(t, started)
	var mintOut, mintErr strings.Builder
	require.Equal(t, 0, cli.Main([]string{"cmdbridge", "--workspace", ws, "token", "mint", "--subject", "ws-1", "--tools", "s:*", "--read", "."}, &mintOut, &mintErr, host), mintErr.String())
	tok := strings.TrimSpace(mintOut.String())

	url, exited := clitest.StartServe(t, ws, host)
	require.Regexp(t, `^http://127\.0\.0\.1:\d+$`, url)

	post := func(name, body string) *http.Response {
		req, err := http.NewRequest("POST", url+"/tools/"+name, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		return resp
	}
	resp := post("s:echo", `{"text":"hi"}`)
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	assert.True(t, clitest.DecodeOutput(t, string(b)).Success, string(b))

	slow := post("s:slow", `{}`)
	defer slow.Body.Close()
	assert.NotEmpty(t, slow.Header.Get(surfacehttp.CallIDHeader))
	<-started
	require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGTERM))
	b, err = io.ReadAll(slow.Body)
	require.NoError(t, err)
	assert.Equal(t, tool.CodeCancelled, clitest.DecodeOutput(t, string(b)).Error.Code, "shutdown cancels calls in flight")
	code, stderr := exited(t)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "stopped")

	// The evidence was closed cleanly: verify passes and holds both calls.
	var vout, verr strings.Builder
	assert.Equal(t, 0, cli.Main([]string{"cmdbridge", "--workspace", ws, "evidence", "verify"}, &vout, &verr, host), vout.String()+verr.String())
}
