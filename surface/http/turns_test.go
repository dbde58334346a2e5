package http_test

import (
	"context"
	"encoding/json"
	"errors"
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
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// turnTools are the write-capable tools the turn tests need, in their own domain so the
// shared fixture's listings do not change.
func turnTools(t testing.TB) func(r *native.Registry, started chan struct{}) {
	return func(r *native.Registry, started chan struct{}) {
		add := func(tl native.Tool) { require.NoError(t, r.Add(tl)) }
		add(native.New(tool.Spec{Name: "turn:write", Domain: "turn", Description: "Write the workspace at once."},
			func(ctx context.Context, env *tool.Env, in noIn) tool.Output { return tool.OK("written") }))
		add(native.New(tool.Spec{Name: "turn:slowwrite", Domain: "turn", Description: "Write the workspace until cancelled."},
			func(ctx context.Context, env *tool.Env, in noIn) tool.Output {
				started <- struct{}{}
				<-ctx.Done()
				// Like a well-behaved tool: it may notice before the kernel does, and
				// then its own code is what the receipt's Output carries.
				code := tool.CodeCancelled
				if errors.Is(ctx.Err(), context.DeadlineExceeded) {
					code = tool.CodeTimeout
				}
				return tool.Fail(code, "turn:slowwrite: %v", ctx.Err())
			}))
		add(native.New(tool.Spec{Name: "turn:destroy", Domain: "turn", Description: "Destroy something (asks first).",
			Annotations: tool.Annotations{DestructiveHint: true}, RequiredApprovals: []string{"owner"}},
			func(ctx context.Context, env *tool.Env, in noIn) tool.Output { return tool.OK("destroyed") }))
	}
}

// newEventFixture is the fixture plus the turn tools, wired to hub the way
// 'cmdbridge serve' wires it (hub as the server's event stream, tool_called hook).
func newEventFixture(t *testing.T, hub *events.Hub) (*fixture, *[]error) {
	t.Helper()
	var (
		mu   sync.Mutex
		errs []error
	)
	onErr := func(err error) { mu.Lock(); errs = append(errs, err); mu.Unlock() }
	f := buildFixture(t, surfacehttp.Config{Events: hub, OnEventError: onErr},
		surfacehttp.ToolCalledHook(surfacehttp.PublishToolCalled(hub, onErr)), turnTools(t))
	return f, &errs
}

func newHub(t *testing.T, dir string) *events.Hub {
	t.Helper()
	hub, err := events.NewHub(events.Config{Dir: dir, Source: "test"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = hub.Close() })
	return hub
}

// writer may call every fixture tool and write the workspace.
func writerToken(t testing.TB, subject string) string {
	return mintToken(t, subject, []string{"t:*", "turn:*"}, nil, []string{"."}, time.Hour)
}

// startTurn posts a turn and returns as soon as the headers are in (the turn runs on).
func startTurn(t *testing.T, ctx context.Context, f *fixture, tok, body string) *nethttp.Response {
	t.Helper()
	req, err := nethttp.NewRequestWithContext(ctx, "POST", f.ts.URL+"/turns", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := f.ts.Client().Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { _ = resp.Body.Close() })
	require.Equal(t, 200, resp.StatusCode)
	return resp
}

func readTurn(t *testing.T, resp *nethttp.Response) surfacehttp.TurnResponse {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var tr surfacehttp.TurnResponse
	require.NoError(t, json.Unmarshal(b, &tr), string(b))
	return tr
}

func codeOf(o tool.Output) string {
	if o.Error == nil {
		return ""
	}
	return o.Error.Code
}

// TestTurnCompletes: a turn whose calls all succeed is, on the stream, turn_started, one
// tool_called per call in request order, then turn_completed, all under the turn's run
// id and from the token's subject; the response has the Outputs in request order.
func TestTurnCompletes(t *testing.T) {
	hub := newHub(t, t.TempDir())
	f, errs := newEventFixture(t, hub)
	tok := writerToken(t, "ws-1:phone:dev-2")
	stream := openSSE(t, f, tok)

	r := f.do(t, "POST", "/turns", tok, `{"turn_id":"T-1","calls":[
		{"tool":"t:echo","input":{"text":"a"}},{"tool":"turn:write"},{"tool":"t_echo","input":{"text":"b"},"timeout_ms":5000}]}`)
	require.Equal(t, 200, r.Status, r.Body)
	assert.Equal(t, "T-1", r.Header.Get(surfacehttp.TurnIDHeader))
	var tr surfacehttp.TurnResponse
	require.NoError(t, json.Unmarshal([]byte(r.Body), &tr))
	assert.Equal(t, "T-1", tr.TurnID)
	assert.Equal(t, surfacehttp.TurnCompleted, tr.Outcome)
	assert.Empty(t, tr.CleanupStatus)
	require.Len(t, tr.Results, 3)
	assert.Equal(t, map[string]any{"text": "a"}, tr.Results[0].Data)
	assert.Equal(t, "written", tr.Results[1].Data)
	assert.Equal(t, map[string]any{"text": "b"}, tr.Results[2].Data)
	for i, res := range tr.Results {
		assert.True(t, res.Success, "call %d", i)
		assert.Equal(t, tr.RunID, res.Metadata["run_id"], "call %d ran under the turn's run", i)
	}

	evs := stream.take(t, 5)
	assert.Equal(t, []string{events.KindTurnStarted, events.KindToolCalled, events.KindToolCalled,
		events.KindToolCalled, events.KindTurnCompleted}, kindsOf(evs))
	for i, ev := range evs {
		assert.Equal(t, tr.RunID, ev.RunID, "event %d", i)
		assert.Equal(t, "ws-1:phone:dev-2", ev.From, "event %d", i)
	}
	assert.Equal(t, "T-1", evs[0].Payload["turn_id"])
	assert.Equal(t, "T-1", evs[4].Payload["turn_id"])
	for i := range 3 {
		assert.Equal(t, tr.Results[i].Metadata["call_id"], evs[1+i].CallID, "tool_called %d is call %d", i, i)
	}
	assert.Equal(t, []any{"t:echo", "turn:write", "t:echo"},
		[]any{evs[1].Payload["tool"], evs[2].Payload["tool"], evs[3].Payload["tool"]})
	assert.Equal(t, float64(3), evs[4].Payload["succeeded"])
	assert.Empty(t, *errs)
}

// TestTurnAborts covers every way a turn ends early and the cleanup status each leaves:
// which calls ran, which were cut off, and what the operator is told to run.
func TestTurnAborts(t *testing.T) {
	cases := []struct {
		name  string
		body  string
		how   string // delete, close, disconnect, or "" (a call times out on its own)
		codes []string
		// what the abort says
		reason  string
		cleanup events.CleanupStatus
		// the tools listed as interrupted and as finished writers
		interrupted, finished []any
	}{
		{"a slow writer cut off by DELETE needs recovery", `{"turn_id":"T-del","calls":[{"tool":"turn:slowwrite"},{"tool":"t:echo"}]}`,
			"delete", []string{tool.CodeCancelled, tool.CodeCancelled},
			surfacehttp.AbortDeleted, events.CleanupNeedsRecovery, []any{"turn:slowwrite"}, nil},
		{"aborted before any writer started is clean", `{"calls":[{"tool":"t:slow"},{"tool":"turn:write"}]}`,
			"delete", []string{tool.CodeCancelled, tool.CodeCancelled},
			surfacehttp.AbortDeleted, events.CleanupClean, nil, nil},
		{"a writer finished before the abort is partial", `{"calls":[{"tool":"turn:write"},{"tool":"t:slow"},{"tool":"turn:write"}]}`,
			"delete", []string{"", tool.CodeCancelled, tool.CodeCancelled},
			surfacehttp.AbortDeleted, events.CleanupPartial, nil, []any{"turn:write"}},
		{"a writer past its deadline aborts the rest", `{"calls":[{"tool":"turn:slowwrite","timeout_ms":20},{"tool":"turn:write"}]}`,
			"", []string{tool.CodeTimeout, tool.CodeCancelled},
			surfacehttp.AbortTimeout, events.CleanupNeedsRecovery, []any{"turn:slowwrite"}, nil},
		{"Server.Close cancels the turn", `{"calls":[{"tool":"turn:write"},{"tool":"turn:slowwrite"}]}`,
			"close", []string{"", tool.CodeCancelled},
			surfacehttp.AbortClosing, events.CleanupNeedsRecovery, []any{"turn:slowwrite"}, []any{"turn:write"}},
		{"a client disconnect cancels the turn", `{"calls":[{"tool":"turn:slowwrite"}]}`,
			"disconnect", []string{tool.CodeCancelled},
			surfacehttp.AbortDisconnected, events.CleanupNeedsRecovery, []any{"turn:slowwrite"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			hub := newHub(t, t.TempDir())
			f, errs := newEventFixture(t, hub)
			tok := writerToken(t, "ws-1")
			stream := openSSE(t, f, tok)

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			resp := startTurn(t, ctx, f, tok, tc.body)
			turnID := resp.Header.Get(surfacehttp.TurnIDHeader)
			require.NotEmpty(t, turnID)
			var tr surfacehttp.TurnResponse
			switch tc.how {
			case "delete":
				f.waitStarted(t)
				// Another subject cannot cancel it, and cannot tell it exists.
				assert.Equal(t, 404, f.do(t, "DELETE", "/turns/"+turnID, writerToken(t, "ws-2"), "").Status)
				d := f.do(t, "DELETE", "/turns/"+turnID, tok, "")
				require.Equal(t, 202, d.Status, d.Body)
				tr = readTurn(t, resp)
			case "close":
				f.waitStarted(t)
				f.srv.Close()
				tr = readTurn(t, resp)
			case "disconnect":
				f.waitStarted(t)
				cancel()
			default:
				tr = readTurn(t, resp)
			}

			evs := stream.take(t, 2+len(tc.codes))
			started, aborted := evs[0], evs[len(evs)-1]
			assert.Equal(t, events.KindTurnStarted, started.Kind)
			require.Equal(t, events.KindTurnAborted, aborted.Kind, "%v", kindsOf(evs))
			for _, ev := range evs[1 : len(evs)-1] {
				assert.Equal(t, events.KindToolCalled, ev.Kind)
				assert.Equal(t, started.RunID, ev.RunID)
			}
			assert.Equal(t, started.RunID, aborted.RunID)
			assert.Equal(t, turnID, aborted.Payload["turn_id"])
			assert.Equal(t, tc.reason, aborted.Payload["reason"])
			assert.Equal(t, string(tc.cleanup), aborted.Payload["cleanup_status"])
			action, _ := aborted.Payload["recovery_action"].(string)
			if tc.cleanup == events.CleanupClean {
				assert.Empty(t, action)
			} else {
				assert.Equal(t, "git -C "+f.k.Workspace()+" status --short", action)
			}
			assert.Equal(t, tc.interrupted, toolsOf(aborted.Payload["interrupted"]))
			assert.Equal(t, tc.finished, toolsOf(aborted.Payload["finished_writers"]))

			if tc.how != "disconnect" {
				assert.Equal(t, turnID, tr.TurnID)
				assert.Equal(t, started.RunID, tr.RunID)
				assert.Equal(t, surfacehttp.TurnAborted, tr.Outcome)
				assert.Equal(t, tc.reason, tr.Reason)
				assert.Equal(t, tc.cleanup, tr.CleanupStatus)
				assert.Equal(t, action, tr.RecoveryAction)
				codes := make([]string, len(tr.Results))
				for i, o := range tr.Results {
					codes[i] = codeOf(o)
				}
				assert.Equal(t, tc.codes, codes)
			}
			// The turn is over: it can no longer be cancelled.
			assert.Equal(t, 404, f.do(t, "DELETE", "/turns/"+turnID, tok, "").Status)
			assert.Empty(t, *errs)
		})
	}
}

// toolsOf reads the tool names of an interrupted/finished_writers payload list.
func toolsOf(v any) []any {
	list, _ := v.([]any)
	var out []any
	for _, e := range list {
		m, _ := e.(map[string]any)
		out = append(out, m["tool"])
	}
	return out
}

// TestTurnVisibility: in a turn, an unknown tool and a tool the token may not see get
// the same TOOL_NOT_FOUND result, byte for byte the 404 body POST /tools gives, and
// neither reaches the kernel; scopes apply per call as for POST /tools.
func TestTurnVisibility(t *testing.T) {
	hub := newHub(t, t.TempDir())
	f, _ := newEventFixture(t, hub)
	narrow := mintToken(t, "ws-1", []string{"t:*", "turn:*"}, []string{"."}, nil, time.Hour) // reads only

	r := f.do(t, "POST", "/turns", narrow, `{"calls":[{"tool":"secret:peek"},{"tool":"nope:nope"},{"tool":"t:off"},
		{"tool":"t:echo","input":{"text":"x"}},{"tool":"turn:write"}]}`)
	require.Equal(t, 200, r.Status, r.Body)
	var raw struct {
		Results []json.RawMessage `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.Body), &raw))
	require.Len(t, raw.Results, 5)
	notFound := f.do(t, "POST", "/tools/secret:peek", narrow, `{}`)
	require.Equal(t, 404, notFound.Status)
	for i := range 3 {
		assert.Equal(t, strings.TrimSpace(notFound.Body), string(raw.Results[i]), "call %d", i)
	}
	tr := readTurnBody(t, r.Body)
	assert.Equal(t, surfacehttp.TurnCompleted, tr.Outcome)
	assert.True(t, tr.Results[3].Success)
	assert.Equal(t, tool.CodeScopeDenied, codeOf(tr.Results[4]), "no write scope, as for POST /tools")

	f.mu.Lock()
	defer f.mu.Unlock()
	var ran []string
	for _, res := range f.results {
		ran = append(ran, res.Receipt.Tool)
	}
	assert.ElementsMatch(t, []string{"t:echo", "turn:write"}, ran, "hidden and unknown tools never reach the kernel")
}

func readTurnBody(t *testing.T, body string) surfacehttp.TurnResponse {
	t.Helper()
	var tr surfacehttp.TurnResponse
	require.NoError(t, json.Unmarshal([]byte(body), &tr), body)
	return tr
}

// TestTurnRequests: the transport answers of POST and DELETE /turns.
func TestTurnRequests(t *testing.T) {
	hub := newHub(t, t.TempDir())
	f, _ := newEventFixture(t, hub)
	tok := writerToken(t, "ws-1")
	expired := mintToken(t, "ws-1", []string{"*"}, []string{"."}, nil, -time.Hour)
	many := `{"calls":[` + strings.Repeat(`{"tool":"t:echo"},`, surfacehttp.MaxTurnCalls) + `{"tool":"t:echo"}]}`
	cases := []struct {
		name, method, path, tok, body string
		status                        int
	}{
		{"no token", "POST", "/turns", "", `{"calls":[{"tool":"t:echo"}]}`, 401},
		{"expired token", "POST", "/turns", expired, `{"calls":[{"tool":"t:echo"}]}`, 401},
		{"delete without token", "DELETE", "/turns/x", "", "", 401},
		{"malformed JSON", "POST", "/turns", tok, `{"calls":`, 400},
		{"not an object", "POST", "/turns", tok, `[1]`, 400},
		{"empty body", "POST", "/turns", tok, ``, 400},
		{"no calls", "POST", "/turns", tok, `{"calls":[]}`, 400},
		{"misspelt field", "POST", "/turns", tok, `{"call":[{"tool":"t:echo"}]}`, 400},
		{"call without tool", "POST", "/turns", tok, `{"calls":[{"input":{}}]}`, 400},
		{"input not an object", "POST", "/turns", tok, `{"calls":[{"tool":"t:echo","input":[1]}]}`, 400},
		{"negative timeout", "POST", "/turns", tok, `{"calls":[{"tool":"t:echo","timeout_ms":-1}]}`, 400},
		{"bad turn id", "POST", "/turns", tok, `{"turn_id":"a b","calls":[{"tool":"t:echo"}]}`, 400},
		{"too many calls", "POST", "/turns", tok, many, 400},
		{"two objects", "POST", "/turns", tok, `{"calls":[{"tool":"t:echo"}]} {}`, 400},
		{"unknown turn", "DELETE", "/turns/nope", tok, "", 404},
		{"valid", "POST", "/turns", tok, `{"calls":[{"tool":"t:echo"}]}`, 200},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := f.do(t, tc.method, tc.path, tc.tok, tc.body)
			assert.Equal(t, tc.status, r.Status, r.Body)
			if tc.status == 401 {
				assert.Contains(t, r.Header.Get("WWW-Authenticate"), `Bearer realm="cmdbridge"`)
			}
			if tc.status != 200 {
				assert.False(t, decodeOutput(t, r.Body).Success)
			}
		})
	}

	t.Run("a turn id in flight is taken", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		resp := startTurn(t, ctx, f, tok, `{"turn_id":"busy","calls":[{"tool":"t:slow"}]}`)
		f.waitStarted(t)
		r := f.do(t, "POST", "/turns", tok, `{"turn_id":"busy","calls":[{"tool":"t:echo"}]}`)
		assert.Equal(t, 409, r.Status)
		assert.Equal(t, tool.CodeAlreadyExists, codeOf(decodeOutput(t, r.Body)))
		// Another subject's turns are its own: the same id is free for it.
		other := f.do(t, "POST", "/turns", writerToken(t, "ws-2"), `{"turn_id":"busy","calls":[{"tool":"t:echo"}]}`)
		assert.Equal(t, 200, other.Status)
		require.Equal(t, 202, f.do(t, "DELETE", "/turns/busy", tok, "").Status)
		assert.Equal(t, surfacehttp.TurnAborted, readTurn(t, resp).Outcome)
	})
}

// TestTurnWithoutEvents: a server with no event stream still runs turns.
func TestTurnWithoutEvents(t *testing.T) {
	f := buildFixture(t, surfacehttp.Config{}, nil, turnTools(t))
	tok := writerToken(t, "ws-1")
	r := f.do(t, "POST", "/turns", tok, `{"calls":[{"tool":"t:echo","input":{"text":"x"}},{"tool":"turn:write"}]}`)
	require.Equal(t, 200, r.Status, r.Body)
	tr := readTurnBody(t, r.Body)
	assert.Equal(t, surfacehttp.TurnCompleted, tr.Outcome)
	assert.Equal(t, tr.RunID, tr.TurnID, "without a turn_id the turn is named by its run")
	require.Len(t, tr.Results, 2)
	assert.True(t, tr.Results[0].Success && tr.Results[1].Success, fmt.Sprint(tr.Results))
	assert.Equal(t, 404, f.do(t, "POST", "/commands", tok, `{"command":"x"}`).Status, "no event stream, no commands")
}
