package http_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/events"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
	"github.com/cmdbridge/cmdbridge/tool"
)

// TestApprovalRequiredIsDurable: a call refused with APPROVAL_REQUIRED, alone or in a
// turn, leaves a durable approval_requested on the caller's channel that a fresh stream
// receives after the hub (and the server) restarted, nobody having listened before.
func TestApprovalRequiredIsDurable(t *testing.T) {
	dir := t.TempDir()
	hub := newHub(t, dir)
	f, errs := newEventFixture(t, hub)
	tok := writerToken(t, "ws-1:phone:dev-9")

	r := f.do(t, "POST", "/tools/turn:destroy", tok, `{}`)
	require.Equal(t, 200, r.Status)
	refused := decodeOutput(t, r.Body)
	require.Equal(t, tool.CodeApprovalRequired, codeOf(refused))
	callID := refused.Metadata["call_id"].(string)
	turn := readTurnBody(t, f.do(t, "POST", "/turns", tok, `{"calls":[{"tool":"t:echo"},{"tool":"turn:destroy"}]}`).Body)
	assert.Equal(t, surfacehttp.TurnCompleted, turn.Outcome, "a refusal ends a call normally")
	require.Equal(t, tool.CodeApprovalRequired, codeOf(turn.Results[1]))
	turnCallID := turn.Results[1].Metadata["call_id"].(string)
	assert.Empty(t, *errs)
	require.NoError(t, hub.Close())

	restarted := newHub(t, dir)
	g, _ := newEventFixture(t, restarted)
	evs := openSSE(t, g, tok).take(t, 2)
	for i, want := range []struct{ callID, runID string }{
		{callID, refused.Metadata["run_id"].(string)}, {turnCallID, turn.RunID},
	} {
		ev := evs[i]
		assert.Equal(t, events.KindApprovalRequested, ev.Kind)
		assert.Equal(t, want.callID, ev.CallID)
		assert.Equal(t, want.runID, ev.RunID)
		assert.Equal(t, want.callID, ev.Payload["approval_id"], "the approval is named by the refused call")
		assert.Equal(t, "turn:destroy", ev.Payload["tool"])
		assert.Equal(t, "default-destructive-ask", ev.Payload["rule"])
		assert.Equal(t, []any{"owner"}, ev.Payload["required_approvals"])
		assert.Equal(t, surfacehttp.ApprovalResolution, ev.Payload["resolution"])
		assert.Regexp(t, `^[0-9a-f]{64}$`, ev.Payload["input_hash"])
		assert.Equal(t, "ws-1:phone:dev-9", ev.From)
		assert.Equal(t, "ws-1:phone:dev-9", ev.Channel)
	}
	assert.Len(t, restarted.Pending(), 2)
}

// TestCommands: POST /commands publishes a durable conductor:command from the token's
// subject; it is delivered to fresh streams until acknowledged, then never again.
func TestCommands(t *testing.T) {
	hub := newHub(t, t.TempDir())
	f, _ := newEventFixture(t, hub)
	tok := writerToken(t, "ws-1")

	r := f.do(t, "POST", "/commands", tok, `{"command":"pause","args":{"n":3,"why":"lunch"}}`)
	require.Equal(t, 202, r.Status, r.Body)
	var acc surfacehttp.CommandAccepted
	require.NoError(t, json.Unmarshal([]byte(r.Body), &acc))
	assert.Equal(t, "ws-1", acc.Channel, "the channel defaults to the subject")
	assert.Regexp(t, `^[0-9a-f]{64}$`, acc.EventID)

	ev := openSSE(t, f, tok).next(t)
	assert.Equal(t, events.KindCommand, ev.Kind)
	assert.Equal(t, acc.EventID, ev.EventID)
	assert.Equal(t, acc.Seq, ev.Seq)
	assert.Equal(t, "ws-1", ev.From)
	assert.Equal(t, "ws-1", ev.Channel)
	assert.Equal(t, "pause", ev.Payload["command"])
	assert.Equal(t, map[string]any{"n": float64(3), "why": "lunch"}, ev.Payload["args"])

	// Not acknowledged: a fresh stream gets it again, same id.
	assert.Equal(t, acc.EventID, openSSE(t, f, tok).next(t).EventID)

	ack := f.do(t, "POST", "/events/ack", tok, `{"event_ids":["`+acc.EventID+`"]}`)
	require.Equal(t, 200, ack.Status, ack.Body)
	assert.JSONEq(t, `{"acked":1,"pending":0}`, ack.Body)

	// A body's channel is honoured when the token may watch it, its "from" never: from
	// is always the token's subject.
	r = f.do(t, "POST", "/commands", writerToken(t, "ws-2"), `{"channel":"ws-1","command":"resume"}`)
	require.Equal(t, 403, r.Status, "ws-2 may not queue commands on ws-1's channel: %s", r.Body)
	ops := operatorToken(t, "ops")
	r = f.do(t, "POST", "/commands", ops, `{"channel":"ws-1","command":"resume"}`)
	require.Equal(t, 202, r.Status, r.Body)
	next := openSSE(t, f, tok).next(t)
	assert.Equal(t, "resume", next.Payload["command"], "the acknowledged command is not re-delivered")
	assert.Equal(t, "ws-1", next.Channel)
	assert.Equal(t, "ops", next.From)
	assert.NotContains(t, next.Payload, "args")
	require.Len(t, hub.Pending(), 1)
}

// TestCommandRequests: the transport answers of POST /commands.
func TestCommandRequests(t *testing.T) {
	hub := newHub(t, t.TempDir())
	f, _ := newEventFixture(t, hub)
	tok := writerToken(t, "ws-1")
	long := `"` + strings.Repeat("x", 257) + `"`
	cases := []struct {
		name, tok, body string
		status          int
	}{
		{"no token", "", `{"command":"x"}`, 401},
		{"bad token", tok + "x", `{"command":"x"}`, 401},
		{"malformed JSON", tok, `{"command":`, 400},
		{"no command", tok, `{"args":{}}`, 400},
		{"empty command", tok, `{"command":""}`, 400},
		{"command too long", tok, `{"command":` + long + `}`, 400},
		{"control character", tok, `{"command":"a\u0007b"}`, 400},
		{"channel too long", tok, `{"command":"x","channel":` + long + `}`, 400},
		{"args not an object", tok, `{"command":"x","args":[1]}`, 400},
		{"args null", tok, `{"command":"x","args":null}`, 400},
		{"a from field", tok, `{"command":"x","from":"someone-else"}`, 400},
		{"two objects", tok, `{"command":"x"}{}`, 400},
		{"valid", tok, `{"command":"x"}`, 202},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := len(hub.Pending())
			r := f.do(t, "POST", "/commands", tc.tok, tc.body)
			assert.Equal(t, tc.status, r.Status, r.Body)
			if tc.status != 202 {
				assert.False(t, decodeOutput(t, r.Body).Success)
				assert.Len(t, hub.Pending(), before, "a refused command is not published")
			} else {
				assert.Len(t, hub.Pending(), before+1)
			}
		})
	}
	require.NoError(t, hub.Close())
	r := f.do(t, "POST", "/commands", tok, `{"command":"x"}`)
	assert.Equal(t, 503, r.Status, "a closed hub accepts nothing: the client must retry")
}
