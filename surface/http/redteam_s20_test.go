package http_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	nethttp "net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/events"
	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
	"github.com/cmdbridge/cmdbridge/surface/http/token"
	"github.com/cmdbridge/cmdbridge/tool"
)

// rawDo sends a request exactly as written (the path is not re-encoded) and never
// follows a redirect, so what the server answers is what the test sees.
func rawDo(t *testing.T, f *fixture, method, rawPath, tok, body string) response {
	t.Helper()
	req, err := nethttp.NewRequest(method, f.ts.URL+"/", strings.NewReader(body))
	require.NoError(t, err)
	req.URL.Opaque = "//" + req.URL.Host + rawPath
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	client := &nethttp.Client{Transport: f.ts.Client().Transport,
		CheckRedirect: func(*nethttp.Request, []*nethttp.Request) error { return nethttp.ErrUseLastResponse }}
	resp, err := client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return response{Status: resp.StatusCode, Header: resp.Header, Body: string(b)}
}

// TestRedTeamNoSpellingReachesAHiddenTool: the attack is to reach a tool the token may
// not see (secret:peek, outside its globs) or nobody may (t:off disabled, t:gone
// excluded) by spelling its name some other way in POST /tools/{name} and in a turn:
// percent-encoded colons and slashes, double encoding, the MCP underscore form, case,
// other separators, the pack prefix, a trailing slash, '..' segments. Expected: every
// spelling that resolves to the tool is the one 404 of an unknown tool (same status,
// headers and bytes), a path the router cleans is only redirected (before the token is
// looked at, so the redirect says nothing about the tool), and the kernel runs nothing.
// The same spellings call secret:peek for a token that may see it, so each does name
// the tool.
func TestRedTeamNoSpellingReachesAHiddenTool(t *testing.T) {
	f := buildFixture(t, surfacehttp.Config{}, nil, nil)
	narrow := mintToken(t, "ws-1:phone:dev-1", []string{"t:*"}, []string{"."}, nil, time.Hour)
	wide := mintToken(t, "ws-1", []string{"**"}, []string{"."}, nil, time.Hour)

	spell := func(name string) []string {
		domain, verb, _ := strings.Cut(name, ":")
		return []string{
			domain + "%3A" + verb, domain + "%3a" + verb, domain + "%253A" + verb,
			domain + "_" + verb, domain + "-" + verb, domain + "." + verb, domain + verb,
			strings.ToUpper(name), strings.ToUpper(domain) + "_" + verb,
			domain + "%2F" + verb, domain + "%20:" + verb, domain + "%00:" + verb,
			fixturePack + ":" + name, "SoftwareDelivery_" + domain + "_" + verb,
			"%73" + name[1:], // %73 is 's' or 't' spelt as an escape
		}
	}
	unknown := rawDo(t, f, "POST", "/tools/nope:nope", narrow, `{}`)
	require.Equal(t, 404, unknown.Status)
	require.Empty(t, unknown.Header.Get("Date"))

	for _, name := range []string{"secret:peek", "t:off", "t:gone"} {
		spellings := spell(name)
		for _, sp := range spellings {
			r := rawDo(t, f, "POST", "/tools/"+sp, narrow, `{"text":"x"}`)
			assert.Equal(t, unknown, r, "narrow token, %s spelt %q", name, sp)
			if name == "secret:peek" && !strings.Contains(sp, "%253A") {
				// The wide token is told the double-escaped spelling is unknown: it is
				// the text "%3A", which folds to the letters "3a".
				ok := rawDo(t, f, "POST", "/tools/"+sp, wide, `{"text":"x"}`)
				assert.Equal(t, 200, ok.Status, "wide token, %q must name %s: %s", sp, name, ok.Body)
			}
		}
		// Paths the router rewrites: a redirect whatever the token and the tool, never
		// a call.
		for _, p := range []string{"/tools/../tools/" + name, "/tools/./" + name, "/tools//" + name} {
			r := rawDo(t, f, "POST", p, narrow, `{}`)
			assert.Equal(t, nethttp.StatusTemporaryRedirect, r.Status, "%s: %s", p, r.Body)
			assert.Equal(t, "/tools/"+name, r.Header.Get("Location"), p)
			anon := rawDo(t, f, "POST", p, "", `{}`)
			assert.Equal(t, r.Status, anon.Status, "%s: answered before the token", p)
			assert.Equal(t, r.Body, anon.Body, p)
		}
		r := rawDo(t, f, "POST", "/tools/"+name+"/", narrow, `{}`)
		assert.Equal(t, 404, r.Status, "trailing slash: %s", r.Body)
		assert.NotContains(t, r.Body, `"success":true`)

		// In a turn, every spelling is the same TOOL_NOT_FOUND as an unknown tool.
		var calls []string
		for _, sp := range spellings {
			if strings.Contains(sp, "%") {
				continue // escapes are a URL's, not a JSON string's
			}
			b, _ := json.Marshal(sp)
			calls = append(calls, `{"tool":`+string(b)+`}`)
		}
		turn := rawDo(t, f, "POST", "/turns", narrow, `{"calls":[`+strings.Join(calls, ",")+`]}`)
		require.Equal(t, 200, turn.Status, turn.Body)
		for i, res := range readTurnBody(t, turn.Body).Results {
			assert.Equal(t, tool.CodeToolNotFound, codeOf(res), "turn call %d (%s)", i, calls[i])
		}
	}

	f.mu.Lock()
	defer f.mu.Unlock()
	for i, res := range f.results {
		assert.Equal(t, "ws-1", f.subject[i], "only the wide token's calls ran, not %s by %s", res.Receipt.Tool, f.subject[i])
		assert.Equal(t, "secret:peek", res.Receipt.Tool)
	}
}

// TestRedTeamAnotherSubjectCannotCancelOrProbe: the attack is a second subject that
// learnt (or guessed: ids are a per-server prefix and a counter) the id of a call and
// of a turn another subject has in flight, and sends DELETE /calls/{id} and DELETE
// /turns/{id}, and also POSTs a turn of the same id. Expected: the DELETEs answer
// exactly what they answer for an id that never existed (status and bytes), the
// owner's call and turn keep running, and only the owner's own DELETE cancels them.
func TestRedTeamAnotherSubjectCannotCancelOrProbe(t *testing.T) {
	hub := newHub(t, t.TempDir())
	f, _ := newEventFixture(t, hub)
	owner := writerToken(t, "ws-1")
	// The same tools and scopes, another subject; and an operator who may watch ws-1's
	// events: watching is not owning.
	for _, other := range []string{writerToken(t, "ws-2"), operatorToken(t, "ops")} {
		ctx, cancel := context.WithCancel(context.Background())
		callID, callResp := startSlow(t, f, ctx, owner)
		turnResp := startTurn(t, ctx, f, owner, `{"turn_id":"t-1","calls":[{"tool":"t:slow"}]}`)
		f.waitStarted(t)

		absentCall := f.do(t, "DELETE", "/calls/"+callID+"0", other, "")
		absentTurn := f.do(t, "DELETE", "/turns/t-2", other, "")
		require.Equal(t, 404, absentCall.Status)
		require.Equal(t, 404, absentTurn.Status)
		for i := 0; i < 3; i++ { // more than once: nothing changes between tries
			r := f.do(t, "DELETE", "/calls/"+callID, other, "")
			assert.Equal(t, absentCall.Status, r.Status)
			assert.Equal(t, absentCall.Body, r.Body, "another subject's call is as absent as none")
			r = f.do(t, "DELETE", "/turns/t-1", other, "")
			assert.Equal(t, absentTurn.Status, r.Status)
			assert.Equal(t, absentTurn.Body, r.Body, "another subject's turn is as absent as none")
		}
		assert.Equal(t, 1, f.srv.Active(), "the owner's POST /tools call is still in flight")
		select {
		case res := <-f.done:
			t.Fatalf("a call finished after another subject's DELETE: %s %s", res.Receipt.Tool, res.Receipt.Status)
		case <-time.After(200 * time.Millisecond):
		}

		require.Equal(t, 202, f.do(t, "DELETE", "/calls/"+callID, owner, "").Status)
		require.Equal(t, 202, f.do(t, "DELETE", "/turns/t-1", owner, "").Status)
		body, err := io.ReadAll(callResp.Body)
		require.NoError(t, err)
		assert.Equal(t, tool.CodeCancelled, codeOf(decodeOutput(t, string(body))))
		assert.Equal(t, surfacehttp.AbortDeleted, readTurn(t, turnResp).Reason)
		f.waitResult(t)
		f.waitResult(t)
		_ = callResp.Body.Close()
		cancel()
	}
}

// TestRedTeamAckCountsOnlyWhatTheTokenSees: the attack is to watch another subject's
// durable traffic through the one number POST /events/ack answers besides its own
// count: "pending". A token acknowledging nothing of its own, repeatedly, would learn
// when another workspace is asked for an approval or sent a command, and how many wait.
// Expected: pending counts only the durable events the token may see.
func TestRedTeamAckCountsOnlyWhatTheTokenSees(t *testing.T) {
	hub := newHub(t, t.TempDir())
	f, _ := newEventFixture(t, hub)
	ws1, ws2 := writerToken(t, "ws-1"), writerToken(t, "ws-2")

	ack := func(tok, body string) map[string]int {
		t.Helper()
		r := f.do(t, "POST", "/events/ack", tok, body)
		require.Equal(t, 200, r.Status, r.Body)
		var got map[string]int
		require.NoError(t, json.Unmarshal([]byte(r.Body), &got), r.Body)
		return got
	}
	probe := `{"event_ids":["none"]}`
	assert.Equal(t, map[string]int{"acked": 0, "pending": 0}, ack(ws1, probe))

	// ws-2 is asked for an approval (a destructive call) and queues two commands.
	r := f.do(t, "POST", "/tools/turn:destroy", ws2, `{}`)
	require.Equal(t, 200, r.Status, r.Body)
	require.Equal(t, tool.CodeApprovalRequired, codeOf(decodeOutput(t, r.Body)))
	for range 2 {
		require.Equal(t, 202, f.do(t, "POST", "/commands", ws2, `{"command":"x"}`).Status)
	}
	require.Len(t, hub.Pending(), 3)

	assert.Equal(t, map[string]int{"acked": 0, "pending": 0}, ack(ws1, probe), "ws-1 learns nothing of ws-2's pending events")
	assert.Equal(t, map[string]int{"acked": 0, "pending": 0}, ack(ws1, `{"channel":"ws-2","through_id":1000000}`))
	assert.Equal(t, map[string]int{"acked": 0, "pending": 3}, ack(ws2, probe), "ws-2 sees its own")
	assert.Equal(t, map[string]int{"acked": 0, "pending": 3}, ack(operatorToken(t, "ops"), probe), "an operator sees every subject's")

	// ws-1's own command counts for it, not ws-2's three.
	require.Equal(t, 202, f.do(t, "POST", "/commands", ws1, `{"command":"y"}`).Status)
	assert.Equal(t, map[string]int{"acked": 0, "pending": 1}, ack(ws1, probe))
	assert.Equal(t, map[string]int{"acked": 3, "pending": 0}, ack(ws2, `{"channel":"ws-2","through_id":1000000}`))
	assert.Equal(t, map[string]int{"acked": 0, "pending": 1}, ack(ws1, probe))
}

// stoppedClock is a server clock that stands still where the test sets it, so a token's
// remaining time by the server's clock does not depend on how fast the machine is.
type stoppedClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *stoppedClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *stoppedClock) set(t time.Time) { c.mu.Lock(); c.now = t; c.mu.Unlock() }

// expiringToken mints a token and sets clock one second before its expiry: the token is
// valid for the server however long the test takes to connect, and a stream it opens
// has one second of real time before its deadline.
func expiringToken(t *testing.T, clock *stoppedClock) (string, token.Claims) {
	t.Helper()
	tok, claims, err := token.Mint(testKey, token.MintOptions{Subject: "ws-1", Tools: []string{"t:*"}, TTL: time.Hour})
	require.NoError(t, err)
	clock.set(claims.Expires().Add(-time.Second))
	return tok, claims
}

// TestRedTeamEventStreamEndsWithItsToken: the attack is to keep watching after the
// token has expired, by opening GET /events just before expiry and never reconnecting:
// every later request is 401, but the stream was authenticated once. Expected: the
// server ends the stream when the token expires (the client sees the end of the
// stream, not its own request's deadline), and a reconnect is 401.
func TestRedTeamEventStreamEndsWithItsToken(t *testing.T) {
	hub := newHub(t, t.TempDir())
	clock := &stoppedClock{}
	f := buildFixture(t, surfacehttp.Config{Events: hub, Now: clock.Now}, nil, nil)
	short, claims := expiringToken(t, clock)
	s := openSSE(t, f, short)
	first, err := hub.Publish(context.Background(), events.Command("ws-1", "before", nil))
	require.NoError(t, err)
	assert.Equal(t, first.EventID, s.next(t).EventID, "a valid token is streamed")
	for s.sc.Scan() { // whatever comes before the end
	}
	assert.NoError(t, s.sc.Err(), "the stream of an expired token was still open when the client gave up")
	clock.set(claims.Expires().Add(time.Second))
	assert.Equal(t, 401, f.do(t, "GET", "/events", short, "").Status)
}

// TestRedTeamMCPStreamEndsWithItsToken: the same attack on /mcp: initialise a session
// with a token about to expire, open the session's GET event stream (server-to-client
// messages) and keep it. Expected: the server ends the stream when the token expires,
// and the session's next request is 401.
func TestRedTeamMCPStreamEndsWithItsToken(t *testing.T) {
	clock := &stoppedClock{}
	f := newFixture(t, surfacehttp.Config{Now: clock.Now})
	short, claims := expiringToken(t, clock)
	hdr := []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream"}
	init := f.do(t, "POST", "/mcp", short, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}`, hdr...)
	require.Equal(t, 200, init.Status, init.Body)
	session := init.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, session)
	hdr = append(hdr, "Mcp-Session-Id", session, "Mcp-Protocol-Version", "2025-06-18")
	r := f.do(t, "POST", "/mcp", short, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, hdr...)
	require.Equal(t, 202, r.Status, r.Body)

	// The client gives up after 15 s; the server should end the stream after one.
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	req, err := nethttp.NewRequestWithContext(ctx, "GET", f.ts.URL+"/mcp", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+short)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := f.ts.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	_, err = io.Copy(io.Discard, resp.Body)
	require.NoError(t, err, "the MCP stream of an expired token was still open when the client gave up")

	clock.set(claims.Expires().Add(time.Second))
	r = f.do(t, "POST", "/mcp", short, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, hdr...)
	assert.Equal(t, 401, r.Status, r.Body)
}

// TestRedTeamCommandBacklogIsBounded: the attack is the weakest token there is (no
// tools, no scopes, no event globs) filling the durable outbox: POST /commands on its
// own channel, again and again, never acknowledging. Every command is fsynced to disk,
// held in memory and replayed to every fresh stream, operators' included. Expected:
// past the byte or the count allowance of its own unacknowledged commands the next is
// 429 and not stored; another subject may still queue commands on that very channel;
// acknowledging frees the allowance. The server's defaults are set, smaller, in the
// fixture only to keep the test quick.
func TestRedTeamCommandBacklogIsBounded(t *testing.T) {
	hub := newHub(t, t.TempDir())
	const maxN, maxBytes, argBytes = 32, 64 << 10, 10 << 10
	f := buildFixture(t, surfacehttp.Config{Events: hub, MaxPendingCommands: maxN, MaxPendingCommandBytes: maxBytes}, nil, nil)
	weak := mintToken(t, "ws-1:phone:p", nil, nil, nil, time.Hour)
	big := `{"command":"fill","args":{"junk":"` + strings.Repeat("x", argBytes) + `"}}`
	accepted := 0
	for ; accepted < maxN; accepted++ {
		r := f.do(t, "POST", "/commands", weak, big)
		if r.Status == nethttp.StatusTooManyRequests {
			assert.Equal(t, tool.CodeTooLarge, codeOf(decodeOutput(t, r.Body)))
			break
		}
		require.Equal(t, 202, r.Status, r.Body)
	}
	assert.Less(t, accepted, maxN, "the outbox took every command")
	assert.LessOrEqual(t, accepted*argBytes, maxBytes)
	require.Len(t, hub.Pending(), accepted, "the refused command was not stored")

	// Small commands are bounded by number.
	tiny := mintToken(t, "ws-2:phone:p", nil, nil, nil, time.Hour)
	for i := 0; i < maxN; i++ {
		require.Equal(t, 202, f.do(t, "POST", "/commands", tiny, `{"command":"c"}`).Status)
	}
	assert.Equal(t, nethttp.StatusTooManyRequests, f.do(t, "POST", "/commands", tiny, `{"command":"c"}`).Status)

	// The flood is the flooder's: an operator still reaches its channel.
	r := f.do(t, "POST", "/commands", operatorToken(t, "ops"), `{"channel":"ws-1:phone:p","command":"stop"}`)
	assert.Equal(t, 202, r.Status, r.Body)
	// Acknowledged, the allowance is back.
	r = f.do(t, "POST", "/events/ack", weak, `{"channel":"ws-1:phone:p","through_id":1000000}`)
	require.Equal(t, 200, r.Status, r.Body)
	assert.Equal(t, 202, f.do(t, "POST", "/commands", weak, big).Status)
}

// TestRedTeamResumeShowsOnlyTheTokensEvents: the attack is to read the replay buffer
// instead of the live stream: reconnect with Last-Event-ID: 0 (or ?last_event_id=0),
// which replays every kept event after that id, ephemeral ones (another subject's tool
// calls and turns) included. Expected: the replay is filtered as the live stream is;
// ws-1 gets only its own events, whichever way it asks to resume.
func TestRedTeamResumeShowsOnlyTheTokensEvents(t *testing.T) {
	hub := newHub(t, t.TempDir())
	f, _ := newEventFixture(t, hub)
	ws1, ws2 := writerToken(t, "ws-1"), writerToken(t, "ws-2")
	// Someone listening, so ephemeral events are kept in the replay buffer.
	watcher := openSSE(t, f, operatorToken(t, "ops"))

	r := f.do(t, "POST", "/turns", ws2, `{"calls":[{"tool":"t:echo","input":{"text":"private"}},{"tool":"turn:destroy"}]}`)
	require.Equal(t, 200, r.Status, r.Body)
	require.Equal(t, 202, f.do(t, "POST", "/commands", ws2, `{"command":"private"}`).Status)
	require.Equal(t, 200, f.do(t, "POST", "/tools/t:echo", ws1, `{"text":"mine"}`).Status)
	// turn_started, 2 tool_called, approval_requested, turn_completed, command, then ws-1's.
	evs := watcher.take(t, 7)
	require.Equal(t, "ws-1", evs[6].From, "%v", kindsOf(evs))

	for _, resume := range []struct{ path, header string }{
		{"/events", "0"}, {"/events?last_event_id=0", ""},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		req, err := nethttp.NewRequestWithContext(ctx, "GET", f.ts.URL+resume.path, nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+ws1)
		if resume.header != "" {
			req.Header.Set("Last-Event-ID", resume.header)
		}
		resp, err := f.ts.Client().Do(req)
		require.NoError(t, err)
		require.Equal(t, 200, resp.StatusCode)
		s := &sseClient{sc: bufio.NewScanner(resp.Body), cancel: cancel}
		// A marker of ws-1's own after the replay: everything before it is ws-1's.
		m := events.Command("ws-1", "marker "+resume.path, nil)
		m.From = "ws-1"
		marker, err := hub.Publish(context.Background(), m)
		require.NoError(t, err)
		var kinds []string
		for ev := s.next(t); ev.EventID != marker.EventID; ev = s.next(t) {
			assert.Equal(t, "ws-1", ev.From, "%s replayed another subject's %s", resume.path, ev.Kind)
			kinds = append(kinds, ev.Kind)
		}
		assert.Contains(t, kinds, events.KindToolCalled, "%s: ws-1's own call is replayed", resume.path)
		cancel()
		_ = resp.Body.Close()
	}
}

// TestRedTeamApprovalRequestsAreBounded: the attack is a token that may call an
// approval-required tool calling it again and again: each refusal published a durable
// approval_requested, kept on disk and replayed to every fresh stream until
// acknowledged. Expected: past MaxPendingApprovals unacknowledged for the subject, a
// refusal publishes none (and says so to the error hook); another subject's still
// goes out, and acknowledging frees the allowance.
func TestRedTeamApprovalRequestsAreBounded(t *testing.T) {
	hub := newHub(t, t.TempDir())
	var dropped []error
	publish := surfacehttp.PublishToolCalled(hub, func(err error) { dropped = append(dropped, err) })
	refuse := func(from string, i int) {
		publish(surfacehttp.ToolCalled{From: from, RunID: "r", CallID: fmt.Sprintf("%s-%d", from, i), Tool: "t:wipe",
			Status: "refused", ErrorCode: tool.CodeApprovalRequired, Rule: "default-destructive-ask"})
	}
	count := func(from string) int {
		n, _ := hub.Backlog(from, events.KindApprovalRequested)
		return n
	}
	for i := 0; i < surfacehttp.MaxPendingApprovals+5; i++ {
		refuse("ws-1", i)
	}
	assert.Equal(t, surfacehttp.MaxPendingApprovals, count("ws-1"))
	require.Len(t, dropped, 5)
	assert.Contains(t, dropped[0].Error(), "already has 1024 unacknowledged")

	refuse("ws-2", 0)
	assert.Equal(t, 1, count("ws-2"), "another subject's allowance is its own")

	_, err := hub.AckChannel("ws-1", 1<<40)
	require.NoError(t, err)
	refuse("ws-1", -1)
	assert.Equal(t, 1, count("ws-1"), "acknowledging frees the allowance")
}
