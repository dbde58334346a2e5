package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/surface/mcp/mcptest"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestStreamableHTTP(t *testing.T) {
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	h, err := mcp.HTTPHandler(k, testCaller, mcp.Config{})
	require.NoError(t, err)
	srv := httptest.NewServer(h) // listens on 127.0.0.1
	defer srv.Close()
	require.True(t, strings.HasPrefix(srv.URL, "http://127.0.0.1:"), srv.URL)

	ctx := context.Background()
	transport := &sdkmcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: srv.Client()}
	cs, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "http-test", Version: "v0"}, nil).Connect(ctx, transport, nil)
	require.NoError(t, err)

	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	assert.Len(t, tools.Tools, 9)

	res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_greet", Arguments: map[string]any{"name": "Ada"}})
	require.NoError(t, err)
	out := mcptest.DecodeResult(t, res)
	require.True(t, out.Success, "%+v", out.Error)
	data, err := json.Marshal(out.Data)
	require.NoError(t, err)
	assert.JSONEq(t, `{"greeting":"hello, Ada"}`, string(data))

	res, err = cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_wipe", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Equal(t, tool.CodeApprovalRequired, mcptest.DecodeResult(t, res).Error.Code)

	_, err = cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "nope", Arguments: map[string]any{}})
	assert.ErrorContains(t, err, "unknown tool")

	require.NoError(t, cs.Close())
	srv.Client().CloseIdleConnections()
}

// postJSON sends one JSON-RPC message as the streamable transport expects it.
func postJSON(t *testing.T, url, session, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	return res
}

func TestHTTPIdleSessionsExpire(t *testing.T) {
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	const idle = 100 * time.Millisecond
	h, err := mcp.HTTPHandler(k, testCaller, mcp.Config{SessionIdle: idle})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()

	ctx := context.Background()
	cs, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "idle-test", Version: "v0"}, nil).Connect(ctx,
		&sdkmcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: srv.Client(), DisableStandaloneSSE: true}, nil)
	require.NoError(t, err)
	defer cs.Close()
	_, err = cs.ListTools(ctx, nil)
	require.NoError(t, err, "the session works while it is used")
	session := cs.ID()
	require.NotEmpty(t, session)

	// Idle past the limit (polled, bounded): the session id is then unknown, 404.
	deadline := time.Now().Add(30 * time.Second)
	status := 0
	for time.Now().Before(deadline) {
		time.Sleep(idle)
		res := postJSON(t, srv.URL, session, `{"jsonrpc":"2.0","id":99,"method":"ping"}`)
		_, _ = io.Copy(io.Discard, res.Body)
		_ = res.Body.Close()
		if status = res.StatusCode; status == http.StatusNotFound {
			break
		}
	}
	assert.Equal(t, http.StatusNotFound, status, "an idle session is closed and its id rejected")
}

func TestHTTPRequestBeforeInitializeIsAnInvalidRequest(t *testing.T) {
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	h, err := mcp.HTTPHandler(k, testCaller, mcp.Config{})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()

	res := postJSON(t, srv.URL, "", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	defer res.Body.Close()
	assert.Equal(t, http.StatusBadRequest, res.StatusCode)
	assert.Empty(t, res.Header.Get("Mcp-Session-Id"), "no session is opened")
	var msg struct {
		ID    any `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&msg))
	assert.EqualValues(t, 1, msg.ID)
	assert.Equal(t, mcp.CodeNotInitialized, msg.Error.Code)
	assert.Contains(t, msg.Error.Message, "initialize")

	// initialize itself still opens a session.
	init := postJSON(t, srv.URL, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	_, _ = io.Copy(io.Discard, init.Body)
	_ = init.Body.Close()
	assert.Equal(t, http.StatusOK, init.StatusCode)
	session := init.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, session)
	del, err := http.NewRequest(http.MethodDelete, srv.URL, nil)
	require.NoError(t, err)
	del.Header.Set("Mcp-Session-Id", session)
	dres, err := http.DefaultClient.Do(del)
	require.NoError(t, err)
	_ = dres.Body.Close()
	assert.Less(t, dres.StatusCode, 300, "the session is closed")
}

// A cancelled request's stream ends without its response; other requests still get
// theirs.
func TestHTTPCancelledRequestGetsNoResponse(t *testing.T) {
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	h, err := mcp.HTTPHandler(k, testCaller, mcp.Config{})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()

	init := postJSON(t, srv.URL, "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	_, _ = io.Copy(io.Discard, init.Body)
	_ = init.Body.Close()
	session := init.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, session)
	defer func() {
		del, _ := http.NewRequest(http.MethodDelete, srv.URL, nil)
		del.Header.Set("Mcp-Session-Id", session)
		if res, err := http.DefaultClient.Do(del); err == nil {
			_ = res.Body.Close()
		}
	}()
	note := postJSON(t, srv.URL, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	_ = note.Body.Close()

	streamed := make(chan string, 1)
	go func() {
		res := postJSON(t, srv.URL, session, callLine(1, "fx_block", `{}`, ""))
		b, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		streamed <- string(b)
	}()
	select {
	case <-blockStarted:
	case <-time.After(30 * time.Second):
		t.Fatal("fx:block never started")
	}
	cancel := postJSON(t, srv.URL, session, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	_ = cancel.Body.Close()
	assert.Equal(t, http.StatusAccepted, cancel.StatusCode)
	select {
	case body := <-streamed:
		assert.NotContains(t, body, `"id":1`, "no response for the cancelled request")
	case <-time.After(30 * time.Second):
		t.Fatal("the cancelled request's stream never ended")
	}

	res := postJSON(t, srv.URL, session, callLine(2, "fx_echo", `{"text":"after"}`, ""))
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	_ = res.Body.Close()
	assert.Contains(t, string(b), `"id":2`)
	assert.Contains(t, string(b), "after")
}

// TestRedTeamHTTPCrossOriginIsForbidden: the handler mounted alone validates Origin, as
// the MCP specification asks of servers (DNS rebinding): another origin's POST and GET
// are 403 and open no session; the server's own origin, a configured one and requests
// without Origin are served. A body over the limit is 413.
func TestRedTeamHTTPCrossOriginIsForbidden(t *testing.T) {
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	h, err := mcp.HTTPHandler(k, testCaller, mcp.Config{AllowedOrigins: []string{"https://ui.example.com"}, MaxBodyBytes: 1024})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`
	send := func(method, origin, body string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, res.Body)
		_ = res.Body.Close()
		return res
	}
	for _, o := range []string{"http://evil.example:" + port, "http://attacker.example", "null"} {
		res := send(http.MethodPost, o, initialize)
		assert.Equal(t, http.StatusForbidden, res.StatusCode, "POST from %s", o)
		assert.Empty(t, res.Header.Get("Mcp-Session-Id"), "no session for %s", o)
		assert.Equal(t, http.StatusForbidden, send(http.MethodGet, o, "").StatusCode, "GET from %s", o)
	}
	for _, o := range []string{"", "http://127.0.0.1:" + port, "https://ui.example.com"} {
		res := send(http.MethodPost, o, initialize)
		assert.Equal(t, http.StatusOK, res.StatusCode, "POST from %q", o)
		if id := res.Header.Get("Mcp-Session-Id"); id != "" {
			del, err := http.NewRequest(http.MethodDelete, srv.URL, nil)
			require.NoError(t, err)
			del.Header.Set("Mcp-Session-Id", id)
			dres, err := http.DefaultClient.Do(del)
			require.NoError(t, err)
			_ = dres.Body.Close()
		}
	}
	big := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"` + strings.Repeat("x", 2000) + `","version":"0"}}}`
	assert.Equal(t, http.StatusRequestEntityTooLarge, send(http.MethodPost, "", big).StatusCode)
}
