package http_test

import (
	"bufio"
	"context"
	"encoding/json"
	nethttp "net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/events"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
)

// TestToolCalledReachesTheEventStream: a call made with a phone token shows up on
// GET /events as agent-runtime:tool_called from that token's subject.
func TestToolCalledReachesTheEventStream(t *testing.T) {
	hub, err := events.NewHub(events.Config{Dir: t.TempDir(), Source: "test"})
	require.NoError(t, err)
	var publishErr error
	f := newFixtureHook(t, surfacehttp.Config{Events: hub},
		surfacehttp.ToolCalledHook(surfacehttp.PublishToolCalled(hub, func(err error) { publishErr = err })))
	t.Cleanup(func() { _ = hub.Close() })
	phone := mintToken(t, "ws-1:phone:dev-7", []string{"t:*"}, []string{"."}, nil, time.Hour)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := nethttp.NewRequestWithContext(ctx, "GET", f.ts.URL+"/events", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+phone)
	resp, err := f.ts.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	lines := bufio.NewScanner(resp.Body)
	// The subscriber is registered once the stream announced its retry delay.
	for lines.Scan() && !strings.HasPrefix(lines.Text(), "retry:") {
	}

	r := f.do(t, "POST", "/tools/t:echo", phone, `{"text":"hi"}`)
	require.Equal(t, 200, r.Status)
	callID := decodeOutput(t, r.Body).Metadata["call_id"]

	var ev events.Event
	for lines.Scan() {
		data, ok := strings.CutPrefix(lines.Text(), "data:")
		if !ok {
			continue
		}
		require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(data)), &ev))
		if ev.Kind == events.KindToolCalled {
			break
		}
	}
	require.NoError(t, publishErr)
	assert.Equal(t, events.KindToolCalled, ev.Kind)
	assert.Equal(t, "ws-1:phone:dev-7", ev.From)
	assert.Equal(t, callID, ev.CallID)
	assert.Equal(t, "t:echo", ev.Payload["tool"])
	assert.Equal(t, "ok", ev.Payload["status"])
	assert.Equal(t, true, ev.Payload["success"])
	assert.NotEmpty(t, ev.EventID)
}
