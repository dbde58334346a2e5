package http_test

import (
	"bufio"
	"context"
	"encoding/json"
	nethttp "net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/events"
)

// sseClient reads one GET /events stream. Every read is bounded by the stream's
// deadline, so a missing event fails the test instead of hanging it.
type sseClient struct {
	sc     *bufio.Scanner
	cancel context.CancelFunc
}

// openSSE connects with tok and returns once the hub has registered the subscriber (it
// announces its retry delay after registering).
func openSSE(t *testing.T, f *fixture, tok string) *sseClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	req, err := nethttp.NewRequestWithContext(ctx, "GET", f.ts.URL+"/events", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := f.ts.Client().Do(req)
	require.NoError(t, err)
	require.Equal(t, 200, resp.StatusCode)
	c := &sseClient{sc: bufio.NewScanner(resp.Body), cancel: cancel}
	t.Cleanup(func() { cancel(); _ = resp.Body.Close() })
	for c.sc.Scan() {
		if strings.HasPrefix(c.sc.Text(), "retry:") {
			return c
		}
	}
	t.Fatalf("event stream ended before its retry line: %v", c.sc.Err())
	return nil
}

// next returns the next event on the stream.
func (c *sseClient) next(t *testing.T) events.Event {
	t.Helper()
	for c.sc.Scan() {
		data, ok := strings.CutPrefix(c.sc.Text(), "data:")
		if !ok {
			continue // id:, event:, comments and blank lines
		}
		var ev events.Event
		require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(data)), &ev))
		return ev
	}
	t.Fatalf("event stream ended (or timed out) before the next event: %v", c.sc.Err())
	return events.Event{}
}

// take reads the next n events.
func (c *sseClient) take(t *testing.T, n int) []events.Event {
	t.Helper()
	out := make([]events.Event, 0, n)
	for range n {
		out = append(out, c.next(t))
	}
	return out
}

func kindsOf(evs []events.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Kind
	}
	return out
}
