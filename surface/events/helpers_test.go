package events_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/events"
)

// frame is one parsed SSE block: an event, a retry announcement or comments.
type frame struct {
	ID       string
	Event    string
	Data     string
	Retry    string
	Comments []string
}

// stream reads SSE blocks from a response body.
type stream struct {
	resp *http.Response
	r    *bufio.Reader
}

// next returns the next block, or an error at end of stream.
func (s *stream) next() (frame, error) {
	var f frame
	seen := false
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			if err == io.EOF && seen {
				return f, io.ErrUnexpectedEOF
			}
			return f, err
		}
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			if seen {
				return f, nil
			}
			continue
		}
		seen = true
		if c, ok := strings.CutPrefix(line, ":"); ok {
			f.Comments = append(f.Comments, strings.TrimSpace(c))
			continue
		}
		field, value, _ := strings.Cut(line, ": ")
		switch field {
		case "id":
			f.ID = value
		case "event":
			f.Event = value
		case "data":
			f.Data = value
		case "retry":
			f.Retry = value
		}
	}
}

// nextEvent skips retry and comment blocks and returns the next event block.
func (s *stream) nextEvent() (frame, error) {
	for {
		f, err := s.next()
		if err != nil || f.Event != "" {
			return f, err
		}
	}
}

// envelope decodes the block's data.
func (f frame) envelope(t *testing.T) events.Event {
	t.Helper()
	var e events.Event
	require.NoError(t, json.Unmarshal([]byte(f.Data), &e), "data: %s", f.Data)
	return e
}

func (f frame) streamID(t *testing.T) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(f.ID, 10, 64)
	require.NoError(t, err, "id %q", f.ID)
	return n
}

// sseClient bounds a whole stream, so a missing event fails the test instead of
// hanging it.
var sseClient = &http.Client{Timeout: 15 * time.Second}

// connect opens GET /events on base with an optional Last-Event-ID; the stream closes
// when the test ends.
func connect(t testing.TB, base, lastID string) *stream {
	t.Helper()
	return connectURL(t, base+"/events", lastID)
}

// connectURL is connect on a full URL (to pass ?last_event_id=).
func connectURL(t testing.TB, url, lastID string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	require.NoError(t, err)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := sseClient.Do(req)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	t.Cleanup(func() {
		cancel()
		resp.Body.Close()
	})
	return &stream{resp: resp, r: bufio.NewReader(resp.Body)}
}

// newHub opens a hub on dir and serves it; both close when the test ends (hub first,
// so open streams end and the server can shut down).
func newHub(t testing.TB, cfg events.Config) (*events.Hub, string) {
	t.Helper()
	if cfg.Dir == "" {
		cfg.Dir = t.TempDir()
	}
	h, err := events.NewHub(cfg)
	require.NoError(t, err)
	srv := httptest.NewServer(h.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(func() { require.NoError(t, h.Close()) })
	return h, srv.URL
}

// waitSubscribers waits until the hub counts n subscribers (a connection is registered
// before its first bytes are written, but the client may see headers first).
func waitSubscribers(t *testing.T, h *events.Hub, n int) {
	t.Helper()
	require.Eventually(t, func() bool { return h.Stats().Subscribers == n }, 5*time.Second, time.Millisecond)
}

func mustPublish(t *testing.T, h *events.Hub, e events.Event) events.Event {
	t.Helper()
	out, err := h.Publish(context.Background(), e)
	require.NoError(t, err)
	return out
}

func postAck(t *testing.T, base, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(base+"/events/ack", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// httpGet does a GET with one header and returns the status code.
func httpGet(url, key, value string) (int, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set(key, value)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}
