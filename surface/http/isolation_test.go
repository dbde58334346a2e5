package http_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/events"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
)

// operatorToken may watch every subject's events (a control plane's token).
func operatorToken(t testing.TB, subject string, globs ...string) string {
	t.Helper()
	if globs == nil {
		globs = []string{"*", "*:**"}
	}
	tok, _, err := token.Mint(testKey, token.MintOptions{Subject: subject, Tools: []string{"t:*"}, Events: globs, TTL: time.Hour})
	require.NoError(t, err)
	return tok
}

// TestEventIsolation: who sees and who may acknowledge which durable event. Each row
// is a token; each column an event published on the hub by (from, channel).
func TestEventIsolation(t *testing.T) {
	hub := newHub(t, t.TempDir())
	f, _ := newEventFixture(t, hub)
	publish := func(from, channel, name string) events.Event {
		e := events.Command(channel, name, nil)
		e.From = from
		got, err := hub.Publish(context.Background(), e)
		require.NoError(t, err)
		return got
	}
	published := map[string]events.Event{
		"ws-1 own":           publish("ws-1", "ws-1", "ws-1 own"),
		"to ws-1 from ops":   publish("ops", "ws-1", "to ws-1 from ops"),
		"ws-1 phone":         publish("ws-1:phone:dev-1", "ws-1:phone:dev-1", "ws-1 phone"),
		"ws-2 own":           publish("ws-2", "ws-2", "ws-2 own"),
		"approval from ws-2": publish("ws-2", "ws-2", "approval from ws-2"),
	}
	rows := []struct {
		name, tok, subject string
		sees               []string
	}{
		{"workspace", writerToken(t, "ws-1"), "ws-1", []string{"ws-1 own", "to ws-1 from ops"}},
		{"its phone", writerToken(t, "ws-1:phone:dev-1"), "ws-1:phone:dev-1", []string{"ws-1 phone"}},
		{"other workspace", writerToken(t, "ws-2"), "ws-2", []string{"ws-2 own", "approval from ws-2"}},
		{"workspace family", operatorToken(t, "ws-1", "ws-1:**"), "ws-1", []string{"ws-1 own", "to ws-1 from ops", "ws-1 phone"}},
		{"operator", operatorToken(t, "ops"), "ops", []string{"ws-1 own", "to ws-1 from ops", "ws-1 phone", "ws-2 own", "approval from ws-2"}},
	}
	for _, row := range rows {
		t.Run("sees/"+row.name, func(t *testing.T) {
			s := openSSE(t, f, row.tok)
			// A marker of the row's own after everything else: once it arrives, every
			// earlier event this token may see has arrived (streams are in id order).
			marker := publish(row.subject, row.subject, "marker "+row.name)
			var got []string
			for {
				ev := s.next(t)
				if ev.EventID == marker.EventID {
					break
				}
				got = append(got, ev.Payload["command"].(string))
			}
			assert.ElementsMatch(t, row.sees, got)
			_, err := hub.Ack([]string{marker.EventID})
			require.NoError(t, err)
		})
	}
	for _, row := range rows {
		t.Run("acks/"+row.name, func(t *testing.T) {
			for name, e := range published {
				if contains(row.sees, name) {
					continue // acknowledged below, by the owner's row only once
				}
				r := f.do(t, "POST", "/events/ack", row.tok, `{"event_ids":["`+e.EventID+`"]}`)
				require.Equal(t, 200, r.Status, r.Body)
				assert.Contains(t, r.Body, `"acked":0`, "%s acknowledged %q", row.name, name)
				r = f.do(t, "POST", "/events/ack", row.tok, `{"channel":"`+e.Channel+`","through_id":1000000}`)
				require.Equal(t, 200, r.Status, r.Body)
				assert.Contains(t, r.Body, `"acked":0`, "%s acknowledged channel %q", row.name, e.Channel)
			}
		})
	}
	require.Len(t, hub.Pending(), len(published), "no foreign acknowledgement took effect")
	r := f.do(t, "POST", "/events/ack", writerToken(t, "ws-2"), `{"event_ids":["`+published["ws-2 own"].EventID+`","`+published["ws-1 own"].EventID+`"]}`)
	require.Equal(t, 200, r.Status, r.Body)
	assert.Contains(t, r.Body, `"acked":1`, "only its own event")
	assert.Len(t, hub.Pending(), len(published)-1)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
