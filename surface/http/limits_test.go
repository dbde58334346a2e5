package http_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	nethttp "net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmdbridge/cmdbridge/internal/tailbuf"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// hangGuard bounds every wait of these tests: never a measure, only a way to fail
// instead of hanging when the server does not do what it must.
const hangGuard = 60 * time.Second

// serving is a fixture's server run by Serve (with its Limits) on a loopback listener.
type serving struct {
	*fixture
	addr string
	url  string
}

func serveFixture(t *testing.T, cfg surfacehttp.Config) *serving {
	t.Helper()
	return serveFixtureWith(t, cfg, nil)
}

// serveFixtureWith is serveFixture with extra tools (buildFixture's extra).
func serveFixtureWith(t *testing.T, cfg surfacehttp.Config, extra func(r *native.Registry, started chan struct{})) *serving {
	t.Helper()
	f := buildFixture(t, cfg, nil, extra)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	served := make(chan error, 1)
	go func() { served <- f.srv.Serve(ln) }()
	t.Cleanup(func() {
		f.srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
		defer cancel()
		_ = f.srv.Shutdown(ctx)
		assert.ErrorIs(t, <-served, nethttp.ErrServerClosed)
	})
	return &serving{fixture: f, addr: ln.Addr().String(), url: "http://" + ln.Addr().String()}
}

// attacker is a set of raw connections that idle or dribble, and learns when the server
// closes each of them.
type attacker struct {
	t      *testing.T
	addr   string
	wg     sync.WaitGroup
	closed atomic.Int64 // connections the server closed
	opened atomic.Int64
	stop   chan struct{}
	mu     sync.Mutex
	conns  []net.Conn
}

func newAttacker(t *testing.T, addr string) *attacker {
	a := &attacker{t: t, addr: addr, stop: make(chan struct{})}
	t.Cleanup(a.finish)
	return a
}

func (a *attacker) finish() {
	select {
	case <-a.stop:
	default:
		close(a.stop)
	}
	a.mu.Lock()
	for _, c := range a.conns {
		_ = c.Close()
	}
	a.mu.Unlock()
	a.wg.Wait()
}

func (a *attacker) dial() net.Conn {
	c, err := net.Dial("tcp", a.addr)
	require.NoError(a.t, err)
	a.mu.Lock()
	a.conns = append(a.conns, c)
	a.mu.Unlock()
	a.opened.Add(1)
	return c
}

// watch reads c until the server closes it (EOF or reset), counting that; the hang
// guard or the test's end stop it otherwise.
func (a *attacker) watch(c net.Conn, r io.Reader) {
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		_ = c.SetReadDeadline(time.Now().Add(hangGuard))
		_, err := io.Copy(io.Discard, r)
		var ne net.Error
		select {
		case <-a.stop:
			return // we closed it
		default:
		}
		if errors.As(err, &ne) && ne.Timeout() {
			return // still open at the hang guard: not counted
		}
		a.closed.Add(1)
	}()
}

// silent opens n connections that never send a byte.
func (a *attacker) silent(n int) {
	for range n {
		c := a.dial()
		a.watch(c, c)
	}
}

// idle opens n keep-alive connections that make one unauthenticated request each
// (GET /healthz), read the answer, then send nothing more.
func (a *attacker) idle(n int) {
	for range n {
		c := a.dial()
		_, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		require.NoError(a.t, err)
		br := bufio.NewReader(c)
		_ = c.SetReadDeadline(time.Now().Add(hangGuard))
		resp, err := nethttp.ReadResponse(br, nil)
		if err != nil {
			// Already closed to make room for a later one: that is the server's answer too.
			a.closed.Add(1)
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		a.watch(c, br)
	}
}

// slow opens n authenticated POST /tools/t:echo requests that announce a 4 KiB body
// and send it one byte at a time.
func (a *attacker) slow(n int, tok string, every time.Duration) {
	for range n {
		c := a.dial()
		_, err := fmt.Fprintf(c, "POST /tools/t:echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n{", tok)
		if err != nil {
			a.closed.Add(1)
			continue
		}
		a.watch(c, c)
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			tick := time.NewTicker(every)
			defer tick.Stop()
			for {
				select {
				case <-a.stop:
					return
				case <-tick.C:
				}
				if _, err := io.WriteString(c, " "); err != nil {
					return
				}
			}
		}()
	}
}

// waitFor polls cond until it holds, failing at the hang guard.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting for %s after %s", what, hangGuard)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// realCall makes one authenticated call on a fresh connection and returns its status
// and body.
func realCall(t *testing.T, url, tok string) (int, string) {
	t.Helper()
	client := &nethttp.Client{Timeout: hangGuard, Transport: &nethttp.Transport{DisableKeepAlives: true}}
	req, err := nethttp.NewRequest(nethttp.MethodPost, url+"/tools/t:echo", strings.NewReader(`{"text":"through"}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := client.Do(req)
	require.NoError(t, err, "the real call could not get through")
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// TestRedTeamIdleAndSlowClientsCannotCrowdOutACall: with every timeout switched off, so
// only the connection caps act, far more silent, idle keep-alive and slow-body
// (authenticated) connections than the caps allow are opened; the server never holds
// more than its cap, closes the surplus, and a real authenticated call still gets
// through.
func TestRedTeamIdleAndSlowClientsCannotCrowdOutACall(t *testing.T) {
	const maxConns, perAddr = 48, 12
	s := serveFixture(t, surfacehttp.Config{Limits: surfacehttp.Limits{
		HeaderTimeout: -1, BodyTimeout: -1, WriteTimeout: -1, IdleTimeout: -1,
		MaxConns: maxConns, MaxConnsPerAddr: perAddr,
	}})
	tok := mintToken(t, "caller", []string{"t:*"}, []string{"."}, nil, time.Hour)
	a := newAttacker(t, s.addr)
	a.silent(60)
	a.idle(60)
	a.slow(90, tok, 50*time.Millisecond)
	total := a.opened.Load()
	require.EqualValues(t, 210, total)

	// Everything beyond the cap is closed by the server, and it holds no more than it.
	waitFor(t, "the server to close the connections over its cap", func() bool {
		return a.closed.Load() >= total-maxConns
	})
	assert.LessOrEqual(t, s.srv.OpenConns(), maxConns)

	status, body := realCall(t, s.url, tok)
	assert.Equal(t, nethttp.StatusOK, status, body)
	assert.Contains(t, body, `"success":true`)
	assert.Contains(t, body, `"text":"through"`)
	assert.LessOrEqual(t, s.srv.OpenConns(), maxConns)
}

// TestRedTeamIdleAndSlowClientsAreClosed: with short timeouts, every silent, idle
// keep-alive and slow-body connection is closed by the server on its own (the hang
// guard only bounds the wait), and a real call made meanwhile succeeds.
func TestRedTeamIdleAndSlowClientsAreClosed(t *testing.T) {
	s := serveFixture(t, surfacehttp.Config{Limits: surfacehttp.Limits{
		// Short, but each is still long enough for the real call's request to arrive.
		HeaderTimeout: time.Second, BodyTimeout: time.Second,
		WriteTimeout: time.Second, IdleTimeout: time.Second,
		MaxConns: 1000, MaxConnsPerAddr: 1000,
	}})
	tok := mintToken(t, "caller", []string{"t:*"}, []string{"."}, nil, time.Hour)
	a := newAttacker(t, s.addr)
	a.silent(40)
	a.idle(40)
	a.slow(40, tok, 50*time.Millisecond)
	status, body := realCall(t, s.url, tok)
	assert.Equal(t, nethttp.StatusOK, status, body)
	waitFor(t, "the server to close every idle and slow connection", func() bool {
		return a.closed.Load() == a.opened.Load()
	})
	waitFor(t, "the server to count them out", func() bool { return s.srv.OpenConns() == 0 })
}

// TestRedTeamCrossOriginIsForbidden: a browser page from another origin (a DNS
// rebinding page included: its Origin names the attacker's domain) gets 403 on /mcp and
// on the REST endpoints, token or not; the server's own origin, a configured one, and
// requests without Origin are served.
func TestRedTeamCrossOriginIsForbidden(t *testing.T) {
	s := serveFixture(t, surfacehttp.Config{AllowedOrigins: []string{"https://ui.example.com"}})
	tok := mintToken(t, "caller", []string{"t:*"}, []string{"."}, nil, time.Hour)
	_, port, err := net.SplitHostPort(s.addr)
	require.NoError(t, err)
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	do := func(method, path, body, originHdr string) int {
		t.Helper()
		req, err := nethttp.NewRequest(method, s.url+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if originHdr != "" {
			req.Header.Set("Origin", originHdr)
		}
		resp, err := nethttp.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode
	}
	for _, o := range []string{"http://evil.example:" + port, "https://evil.example", "null", "http://127.0.0.1:1"} {
		assert.Equal(t, nethttp.StatusForbidden, do(nethttp.MethodPost, "/mcp", initialize, o), "POST /mcp from %s", o)
		assert.Equal(t, nethttp.StatusForbidden, do(nethttp.MethodPost, "/tools/t:echo", `{}`, o), "POST /tools from %s", o)
		assert.Equal(t, nethttp.StatusForbidden, do(nethttp.MethodGet, "/tools", "", o), "GET /tools from %s", o)
	}
	for _, o := range []string{"", "http://127.0.0.1:" + port, "http://localhost:" + port, "https://ui.example.com"} {
		assert.Equal(t, nethttp.StatusOK, do(nethttp.MethodPost, "/mcp", initialize, o), "POST /mcp from %q", o)
		assert.Equal(t, nethttp.StatusOK, do(nethttp.MethodPost, "/tools/t:echo", `{}`, o), "POST /tools from %q", o)
	}
}

// TestRedTeamBodiesAreBounded: every endpoint that reads a body refuses one over its
// limit with 413, /mcp included.
func TestRedTeamBodiesAreBounded(t *testing.T) {
	s := serveFixture(t, surfacehttp.Config{MaxBodyBytes: 1024, MaxMCPBodyBytes: 2048})
	tok := mintToken(t, "caller", []string{"t:*"}, []string{"."}, nil, time.Hour)
	big := func(n int) string { return `{"text":"` + strings.Repeat("x", n) + `"}` }
	initialize := func(n int) string {
		return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"` + strings.Repeat("x", n) + `","version":"1"}}}`
	}
	for _, tc := range []struct {
		method, path, body string
	}{
		{nethttp.MethodPost, "/tools/t:echo", big(2000)},
		{nethttp.MethodPost, "/turns", big(2000)},
		{nethttp.MethodPost, "/mcp", initialize(3000)},
		{nethttp.MethodDelete, "/calls/x", big(2000)},
	} {
		req, err := nethttp.NewRequest(tc.method, s.url+tc.path, strings.NewReader(tc.body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := nethttp.DefaultClient.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		assert.Equal(t, nethttp.StatusRequestEntityTooLarge, resp.StatusCode, "%s %s: %s", tc.method, tc.path, b)
	}
	// Within the limit, /mcp is served (its limit is its own).
	req, err := nethttp.NewRequest(nethttp.MethodPost, s.url+"/mcp", strings.NewReader(initialize(1500)))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := nethttp.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, nethttp.StatusOK, resp.StatusCode)
}

// TestLongCallOutlivesTimeouts: a call that runs longer than every timeout keeps its
// connection: the read deadline is lifted once the body is in, and the write timeout
// bounds each write, not the response. The wait is only ever longer on a slow machine,
// which changes nothing asserted.
func TestLongCallOutlivesTimeouts(t *testing.T) {
	const short = 500 * time.Millisecond // generous: a request must still arrive within it
	s := serveFixture(t, surfacehttp.Config{Limits: surfacehttp.Limits{
		HeaderTimeout: short, BodyTimeout: short, WriteTimeout: short, IdleTimeout: short,
	}})
	tok := mintToken(t, "caller", []string{"t:*"}, []string{"."}, nil, time.Hour)
	req, err := nethttp.NewRequest(nethttp.MethodPost, s.url+"/tools/t:slow", strings.NewReader(`{}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok)
	client := &nethttp.Client{Timeout: hangGuard}
	resp, err := client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	s.waitStarted(t)
	time.Sleep(4 * short) // past every timeout
	select {
	case r := <-s.done:
		t.Fatalf("the call ended while it should still run: %+v", r.Output)
	default:
	}
	del, err := nethttp.NewRequest(nethttp.MethodDelete, s.url+"/calls/"+resp.Header.Get(surfacehttp.CallIDHeader), nil)
	require.NoError(t, err)
	del.Header.Set("Authorization", "Bearer "+tok)
	dresp, err := client.Do(del)
	require.NoError(t, err)
	_ = dresp.Body.Close()
	require.Equal(t, nethttp.StatusAccepted, dresp.StatusCode)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err, "the long call's connection was cut")
	assert.Contains(t, string(body), `"code":"CANCELLED"`)
}

// TestEventStreamOutlivesTimeouts: an event stream open longer than every timeout still
// delivers: nothing cuts a stream that is waiting for its next event (the hub bounds
// each of its writes itself, as the server's writer does).
func TestEventStreamOutlivesTimeouts(t *testing.T) {
	const short = 500 * time.Millisecond // generous: a request must still arrive within it
	s := serveFixture(t, surfacehttp.Config{Events: newHub(t, t.TempDir()), Limits: surfacehttp.Limits{
		HeaderTimeout: short, BodyTimeout: short, WriteTimeout: short, IdleTimeout: short,
	}})
	tok := mintToken(t, "caller", []string{"t:*"}, []string{"."}, nil, time.Hour)
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	req, err := nethttp.NewRequestWithContext(ctx, nethttp.MethodGet, s.url+"/events", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := nethttp.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, nethttp.StatusOK, resp.StatusCode)
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "retry:") {
	}
	time.Sleep(4 * short) // past every timeout

	cmd, err := nethttp.NewRequest(nethttp.MethodPost, s.url+"/commands", strings.NewReader(`{"command":"still-there"}`))
	require.NoError(t, err)
	cmd.Header.Set("Authorization", "Bearer "+tok)
	cresp, err := nethttp.DefaultClient.Do(cmd)
	require.NoError(t, err)
	_ = cresp.Body.Close()
	require.Equal(t, nethttp.StatusAccepted, cresp.StatusCode)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data:") && strings.Contains(sc.Text(), "still-there") {
			return
		}
	}
	t.Fatalf("the stream ended before the command arrived: %v", sc.Err())
}

// limitedServerEnv makes the test binary the server of
// TestRedTeamDescriptorLimitCannotBlockACall, under a low open-file limit.
const limitedServerEnv = "CMDBRIDGE_TEST_LIMITED_SERVER"

// limitedServerFiles is the child's open-file limit: the `ulimit -n 256` of the report
// that had `accept4: too many open files` block a real call.
const limitedServerFiles = 256

// TestRedTeamDescriptorLimitCannotBlockACall reproduces descriptor exhaustion: the test
// binary runs itself as a server whose RLIMIT_NOFILE is 256, with the default connection
// caps (so MaxConns is half the limit) and no timeouts (only the caps act), and this
// process opens 300 silent, idle and slow-body connections to it — more than its
// descriptors. The server must keep accepting, and a real authenticated call succeeds.
func TestRedTeamDescriptorLimitCannotBlockACall(t *testing.T) {
	if os.Getenv(limitedServerEnv) == "1" {
		runLimitedServer(t)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*hangGuard)
	// Cancelled last (cleanups run in reverse): the child stops on its own when its stdin
	// closes and removes its temporary directory; a deferred cancel would kill it first
	// and leave the directory behind.
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestRedTeamDescriptorLimitCannotBlockACall$", "-test.count=1")
	cmd.Env = append(os.Environ(), limitedServerEnv+"=1")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	stderr := tailbuf.New(captureMax)
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	// A cleanup, not a defer: it runs after the attacker's (registered later) has closed
	// every connection, so the child's shutdown has nothing left to wait for.
	t.Cleanup(func() {
		_ = stdin.Close() // the child stops when its stdin closes
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	var url, tok string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "LIMITED-SERVER "); ok {
			url, tok, _ = strings.Cut(rest, " ")
			break
		}
	}
	require.NotEmpty(t, url, "the server did not start")
	go func() { _, _ = io.Copy(io.Discard, stdout) }()

	a := newAttacker(t, strings.TrimPrefix(url, "http://"))
	a.silent(100)
	a.idle(100)
	a.slow(100, tok, 50*time.Millisecond)
	status, body := realCall(t, url, tok)
	assert.Equal(t, nethttp.StatusOK, status, body)
	assert.Contains(t, body, `"text":"through"`)
	assert.NotContains(t, stderr.String(), "too many open files", "the server ran out of descriptors")
	waitFor(t, "the server to close what it cannot hold", func() bool {
		return a.closed.Load() >= a.opened.Load()-limitedServerFiles/2
	})
}

// runLimitedServer is the child's side: lower the open-file limit, serve, print the URL
// and a token, and stop when stdin closes.
func runLimitedServer(t *testing.T) {
	lim := syscall.Rlimit{Cur: limitedServerFiles, Max: limitedServerFiles}
	require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim))
	s := serveFixture(t, surfacehttp.Config{Limits: surfacehttp.Limits{
		HeaderTimeout: -1, BodyTimeout: -1, WriteTimeout: -1, IdleTimeout: -1,
	}})
	tok := mintToken(t, "caller", []string{"t:*"}, []string{"."}, nil, time.Hour)
	fmt.Printf("LIMITED-SERVER %s %s\n", s.url, tok)
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// TestMCPLongCallOutlivesTimeouts: an MCP tools/call that runs longer than every
// timeout gets its result on its response stream.
func TestMCPLongCallOutlivesTimeouts(t *testing.T) {
	const short = 500 * time.Millisecond // generous: a request must still arrive within it
	release := make(chan struct{})
	s := serveFixtureWith(t, surfacehttp.Config{Limits: surfacehttp.Limits{
		HeaderTimeout: short, BodyTimeout: short, WriteTimeout: short, IdleTimeout: short,
	}}, func(r *native.Registry, started chan struct{}) {
		require.NoError(t, r.Add(native.New(tool.Spec{Name: "t:wait", Domain: "t", Description: "Wait until released.",
			Annotations: tool.Annotations{ReadOnlyHint: true}},
			func(ctx context.Context, env *tool.Env, in noIn) tool.Output {
				started <- struct{}{}
				select {
				case <-release:
					return tool.OK("released")
				case <-ctx.Done():
					return tool.Fail(tool.CodeCancelled, "t:wait: %v", ctx.Err())
				}
			})))
	})
	tok := mintToken(t, "caller", []string{"t:*"}, []string{"."}, nil, time.Hour)
	client := &nethttp.Client{Transport: bearerTransport{tok: tok, base: nethttp.DefaultTransport}}
	transport := &sdkmcp.StreamableClientTransport{Endpoint: s.url + "/mcp", HTTPClient: client}
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	cs, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, transport, nil)
	require.NoError(t, err)
	defer cs.Close()
	type result struct {
		res *sdkmcp.CallToolResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "t_wait", Arguments: map[string]any{}})
		done <- result{res, err}
	}()
	s.waitStarted(t)
	time.Sleep(4 * short) // past every timeout
	close(release)
	r := <-done
	require.NoError(t, r.err, "the long call's stream was cut")
	assert.False(t, r.res.IsError)
	assert.Contains(t, r.res.Content[0].(*sdkmcp.TextContent).Text, "released")
}

// captureMax bounds what the test keeps of a child's stream (it keeps all of it).
const captureMax = 64 << 20
