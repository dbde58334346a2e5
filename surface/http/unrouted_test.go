package http_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	nethttp "net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/events"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
)

// TestUnroutedRequestsAnswerToolOutputJSON: a path no endpoint serves is 404 and a
// served path asked with another method is 405 with Allow, both in the tool.Output
// shape the other refusals use (docs/http.md "Endpoints"), saying what to send
// instead; the routed endpoints, /mcp and the event stream among them, still answer.
func TestUnroutedRequestsAnswerToolOutputJSON(t *testing.T) {
	hub, err := events.NewHub(events.Config{Dir: t.TempDir(), Source: "test"})
	require.NoError(t, err)
	f := newFixture(t, surfacehttp.Config{Events: hub})
	t.Cleanup(func() { _ = hub.Close() })
	tok := mintToken(t, "ws-1", []string{"t:*"}, []string{"."}, nil, time.Hour)

	type failure struct {
		Success *bool           `json:"success"`
		Data    json.RawMessage `json:"data"`
		Error   *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	decode := func(t *testing.T, resp *nethttp.Response) failure {
		t.Helper()
		defer resp.Body.Close()
		assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		var out failure
		require.NoError(t, json.Unmarshal(b, &out), "%s", b)
		require.NotNil(t, out.Success, "%s", b)
		assert.False(t, *out.Success)
		assert.Equal(t, "null", string(out.Data))
		require.NotNil(t, out.Error, "%s", b)
		return out
	}
	send := func(t *testing.T, method, path string, withToken bool) *nethttp.Response {
		t.Helper()
		req, err := nethttp.NewRequest(method, f.ts.URL+path, strings.NewReader("{}"))
		require.NoError(t, err)
		if withToken {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := nethttp.DefaultClient.Do(req)
		require.NoError(t, err)
		return resp
	}

	for _, tc := range []struct {
		method, path string
		token        bool
	}{
		{"GET", "/nope", true},
		{"GET", "/nope", false}, // no token: the answer says nothing a token would hide
		{"POST", "/tool/t:echo", true},
		{"GET", "/tools/t:echo/extra", true},
		{"GET", "/events/nope", true},
	} {
		t.Run("404 "+tc.method+" "+tc.path, func(t *testing.T) {
			resp := send(t, tc.method, tc.path, tc.token)
			require.Equal(t, nethttp.StatusNotFound, resp.StatusCode)
			out := decode(t, resp)
			assert.Equal(t, "NOT_FOUND", out.Error.Code)
			assert.Contains(t, out.Error.Message, tc.path)
			for _, ep := range []string{"GET /tools", "POST /tools/{name}", "POST /turns", "/mcp", "GET /events", "POST /events/ack"} {
				assert.Contains(t, out.Error.Message, ep, "the message lists the endpoints")
			}
		})
	}
	for _, tc := range []struct {
		method, path, allow string
	}{
		{"GET", "/tools/t:echo", "POST"},
		{"DELETE", "/tools", "GET, HEAD"},
		{"PUT", "/turns", "POST"},
		{"POST", "/healthz", "GET, HEAD"},
		{"GET", "/calls/c-1", "DELETE"},
		{"POST", "/events", "GET, HEAD"},
		{"GET", "/events/ack", "POST"},
	} {
		t.Run("405 "+tc.method+" "+tc.path, func(t *testing.T) {
			resp := send(t, tc.method, tc.path, true)
			require.Equal(t, nethttp.StatusMethodNotAllowed, resp.StatusCode)
			assert.Equal(t, tc.allow, resp.Header.Get("Allow"))
			out := decode(t, resp)
			assert.Equal(t, "METHOD_NOT_ALLOWED", out.Error.Code)
			assert.Contains(t, out.Error.Message, tc.path)
			assert.Contains(t, out.Error.Message, strings.Split(tc.allow, ",")[0], "the message names the method to send")
		})
	}

	// The routed endpoints are unchanged: a call, /mcp's answer to a bare GET (the SDK's
	// own, not ours), and the event stream.
	r := f.do(t, "POST", "/tools/t:echo", tok, `{"text":"hi"}`)
	require.Equal(t, 200, r.Status, r.Body)
	assert.Contains(t, r.Body, `"success":true`)
	resp := send(t, "DELETE", "/mcp", true)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.NotContains(t, string(b), "METHOD_NOT_ALLOWED", "/mcp answers every method itself")
	assert.NotContains(t, string(b), "NOT_FOUND")

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := nethttp.NewRequestWithContext(ctx, "GET", f.ts.URL+"/events", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok)
	stream, err := nethttp.DefaultClient.Do(req)
	require.NoError(t, err)
	defer stream.Body.Close()
	require.Equal(t, 200, stream.StatusCode)
	assert.Equal(t, "text/event-stream", strings.Split(stream.Header.Get("Content-Type"), ";")[0])
	line, err := bufio.NewReader(stream.Body).ReadString('\n')
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(line, "retry:"), "%q", line)
}
