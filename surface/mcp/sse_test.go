package mcp_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/mcp"
)

// sseEvent is one server-sent event's fields (RFC-less, per the HTML standard).
type sseEvent struct{ name, id, retry, data string }

// readEvents splits an event stream into its events, fields kept as sent.
func readEvents(t *testing.T, body string) []sseEvent {
	t.Helper()
	var out []sseEvent
	for _, block := range strings.Split(strings.TrimSuffix(body, "\n\n"), "\n\n") {
		var e sseEvent
		for _, line := range strings.Split(block, "\n") {
			field, value, _ := strings.Cut(line, ": ")
			switch field {
			case "event":
				e.name = value
			case "id":
				e.id = value
			case "retry":
				e.retry = value
			case "data":
				e.data = value
			}
		}
		out = append(out, e)
	}
	return out
}

// postVersion is postJSON naming the negotiated protocol version, as clients do after
// initialize.
func postVersion(t *testing.T, url, session, version, body string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", version)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return string(b)
}

// TestHTTPStreamsPrimeAndAnnounceRetry: every event stream of the streamable HTTP
// handler starts with the SSE retry field; on protocol 2025-11-25 a POST's stream then
// carries a priming event (an id, empty data) before its response, and a client that
// lost the stream gets the response again by resuming from that id (GET with
// Last-Event-ID). The standalone GET stream sends the retry field at once, so its
// headers are not held back until the first message.
func TestHTTPStreamsPrimeAndAnnounceRetry(t *testing.T) {
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	h, err := mcp.HTTPHandler(k, testCaller, mcp.Config{})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()
	retry := strconv.FormatInt(mcp.SSERetry.Milliseconds(), 10)

	for _, version := range []string{"2025-11-25", "2025-06-18"} {
		t.Run(version, func(t *testing.T) {
			init := postJSON(t, srv.URL, "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
			b, err := io.ReadAll(init.Body)
			require.NoError(t, err)
			_ = init.Body.Close()
			require.Equal(t, "text/event-stream", init.Header.Get("Content-Type"))
			require.True(t, strings.HasPrefix(string(b), "retry: "+retry+"\n\n"), "the stream starts with the retry field: %q", b)
			session := init.Header.Get("Mcp-Session-Id")
			require.NotEmpty(t, session)
			defer func() { // end the session, so its goroutines do too
				del, _ := http.NewRequest(http.MethodDelete, srv.URL, nil)
				del.Header.Set("Mcp-Session-Id", session)
				if res, err := http.DefaultClient.Do(del); err == nil {
					_ = res.Body.Close()
				}
			}()
			_ = postVersion(t, srv.URL, session, version, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)

			events := readEvents(t, postVersion(t, srv.URL, session, version, callLine(1, "fx_echo", `{"text":"again"}`, "")))
			require.NotEmpty(t, events)
			assert.Equal(t, sseEvent{retry: retry}, events[0], "first the retry field, alone")
			last := events[len(events)-1]
			assert.Contains(t, last.data, `"id":1`)
			assert.Contains(t, last.data, "again")
			if version < "2025-11-25" {
				for _, e := range events {
					assert.NotEqual(t, "prime", e.name, "no priming event before 2025-11-25: %+v", events)
				}
				return
			}
			require.GreaterOrEqual(t, len(events), 3, "%+v", events)
			prime := events[1]
			assert.Equal(t, "prime", prime.name)
			assert.NotEmpty(t, prime.id, "the priming event carries an id to resume from")
			assert.Empty(t, prime.data)

			// The stream is lost after the priming event: resume from its id.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
			require.NoError(t, err)
			req.Header.Set("Accept", "text/event-stream")
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", version)
			req.Header.Set("Last-Event-ID", prime.id)
			res, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer res.Body.Close()
			require.Equal(t, http.StatusOK, res.StatusCode)
			replay, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			assert.Contains(t, string(replay), `"id":1`, "the response is replayed")
			assert.Contains(t, string(replay), "again")
			assert.True(t, strings.HasPrefix(string(replay), "retry: "+retry+"\n\n"), "%q", replay)

			// The standalone stream: its first bytes arrive at once.
			ctx2, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel2()
			get, err := http.NewRequestWithContext(ctx2, http.MethodGet, srv.URL, nil)
			require.NoError(t, err)
			get.Header.Set("Accept", "text/event-stream")
			get.Header.Set("Mcp-Session-Id", session)
			get.Header.Set("Mcp-Protocol-Version", version)
			gres, err := http.DefaultClient.Do(get)
			require.NoError(t, err)
			defer gres.Body.Close()
			require.Equal(t, http.StatusOK, gres.StatusCode)
			line, err := bufio.NewReader(gres.Body).ReadString('\n')
			require.NoError(t, err)
			assert.Equal(t, "retry: "+retry+"\n", line)
		})
	}
}
