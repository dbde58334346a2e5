package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/surface/mcp/mcptest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Red-team pass on the MCP surface: what a hostile MCP client (it speaks the protocol
// but may lie, race and send crafted messages) can make the server do.

// callRaw calls name with arguments sent byte for byte as written (duplicate keys
// included) and decodes the result.
func callRaw(t *testing.T, cs *sdkmcp.ClientSession, name, args string) tool.Output {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	require.NoError(t, err)
	return mcptest.DecodeResult(t, res)
}

// TestRedTeamDuplicateKeysOneValue: the attack is a JSON object naming one property
// twice, or twice in different case, hoping the scope check reads one value and the
// tool another (a safe path checked, an outside one written). Expected: the kernel
// decides on the value the tool gets (the last one, as JSON.parse reads it), and a
// second spelling of a property in another case is an unknown property, refused.
func TestRedTeamDuplicateKeysOneValue(t *testing.T) {
	var seen results
	k := newFixtureKernel(t, t.TempDir(), seen.add)
	t.Cleanup(func() { _ = k.Close() })
	cs := connectInMemory(t, k)

	out := callRaw(t, cs, "fx_write", `{"path":"a.txt","path":"../outside.txt"}`)
	require.NotNil(t, out.Error, "%+v", out)
	assert.Equal(t, tool.CodeScopeDenied, out.Error.Code, out.Error.Message)

	out = callRaw(t, cs, "fx_write", `{"path":"../outside.txt","path":"a.txt"}`)
	require.True(t, out.Success, "%+v", out.Error)
	assert.Equal(t, "a.txt", out.Data, "the tool got the value the scope check allowed")

	for _, args := range []string{
		`{"path":"a.txt","Path":"../outside.txt"}`,
		`{"Path":"../outside.txt","path":"a.txt"}`,
		`{"path":"a.txt","PATH":"../outside.txt"}`,
	} {
		out = callRaw(t, cs, "fx_write", args)
		require.NotNil(t, out.Error, "%s: %+v", args, out)
		assert.Equal(t, tool.CodeInvalidInput, out.Error.Code, "%s: %s", args, out.Error.Message)
	}
	for _, r := range seen.list() {
		if r.Receipt.Status != evidence.StatusRefused {
			assert.Equal(t, "a.txt", r.Output.Data, "only the in-scope path ever ran")
		}
	}
}

// TestRedTeamOnDemandNameIsReadAsWritten: the attack is tool_call's arguments naming
// the tool twice in different case, {"name":"fx_echo","Name":"fx_wipe"}: a host, a
// proxy or an approval screen reading them as JSON does (case-sensitive) sees fx_echo,
// while a case-insensitive decoder would call fx_wipe. Expected: a property that is
// not exactly one of the tool's is refused INVALID_INPUT, and nothing is called.
func TestRedTeamOnDemandNameIsReadAsWritten(t *testing.T) {
	var seen results
	k := newFixtureKernel(t, t.TempDir(), seen.add)
	t.Cleanup(func() { _ = k.Close() })
	cs := connectInMemoryWith(t, k, nil, mcp.Config{OnDemand: true})
	for _, tc := range []struct{ tool, args string }{
		{mcp.CallToolName, `{"name":"fx_echo","Name":"fx_wipe","arguments":{}}`},
		{mcp.CallToolName, `{"name":"fx_echo","NAME":"fx_write","arguments":{"text":"hi"},"Arguments":{"path":"../outside.txt"}}`},
		{mcp.CallToolName, `{"name":"fx_echo","arguments":{"text":"hi"},"ARGUMENTS":{"text":"other"}}`},
		{mcp.DescribeToolName, `{"name":"fx_echo","Name":"fx_wipe"}`},
		{mcp.SearchToolName, `{"query":"echo","Query":"wipe"}`},
	} {
		res, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{Name: tc.tool, Arguments: json.RawMessage(tc.args)})
		require.NoError(t, err)
		var out tool.Output
		require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*sdkmcp.TextContent).Text), &out))
		require.NotNil(t, out.Error, "%s %s: %+v", tc.tool, tc.args, out)
		assert.Equal(t, tool.CodeInvalidInput, out.Error.Code, "%s %s: %s", tc.tool, tc.args, out.Error.Message)
	}
	assert.Empty(t, seen.list(), "no tool was called")

	// Written as the schema names them, the same calls work.
	out := callRaw(t, cs, mcp.CallToolName, `{"name":"fx_echo","arguments":{"text":"hi"}}`)
	require.True(t, out.Success, "%+v", out.Error)
}

// TestRedTeamApprovalAnswerIsOnlyABooleanTrue: the attack is to answer the approval
// question with something that is not what the form asked (approve as the string
// "true", as 1, under another case, an action spelled otherwise, the answer under
// another key), hoping a loose reading approves. Expected: only action "accept" with
// the boolean approve true, under the question's key, with the state the server
// issued, runs the call; every other answer is APPROVAL_DENIED or asks again, and
// fx:wipe never runs. An answer from a client that never declared elicitation is not
// read at all: its call is not interactive, so the ask is APPROVAL_REQUIRED.
func TestRedTeamApprovalAnswerIsOnlyABooleanTrue(t *testing.T) {
	var seen results
	k := newFixtureKernel(t, t.TempDir(), seen.add)
	t.Cleanup(func() { _ = k.Close() })
	never := func(context.Context, *sdkmcp.ElicitRequest) (*sdkmcp.ElicitResult, error) {
		t.Error("the server asked by elicitation/create")
		return nil, context.Canceled
	}
	cs := connectVersion(t, k, "2026-07-28", &sdkmcp.ClientOptions{ElicitationHandler: never,
		MultiRoundTrip: &sdkmcp.MultiRoundTripOptions{Disabled: true}})
	ctx := context.Background()
	first, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_wipe", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.True(t, first.NeedsInput())
	state := first.RequestState

	answer := func(key string, r *sdkmcp.ElicitResult) *sdkmcp.CallToolResult {
		res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_wipe", Arguments: map[string]any{},
			InputResponses: sdkmcp.InputResponseMap{key: r}, RequestState: state})
		require.NoError(t, err)
		return res
	}
	for _, tc := range []struct {
		name string
		key  string
		r    *sdkmcp.ElicitResult
		code string // "" when the server asks again
	}{
		{"approve as a string", mcp.ApprovalInputKey, &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": "true"}}, tool.CodeApprovalDenied},
		{"approve as a number", mcp.ApprovalInputKey, &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": 1}}, tool.CodeApprovalDenied},
		{"approve in another case", mcp.ApprovalInputKey, &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"Approve": true}}, tool.CodeApprovalDenied},
		{"approve twice, false and true", mcp.ApprovalInputKey, &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": false, "APPROVE": true}}, tool.CodeApprovalDenied},
		{"approve nested", mcp.ApprovalInputKey, &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": map[string]any{"approve": true}}}, tool.CodeApprovalDenied},
		{"action in capitals", mcp.ApprovalInputKey, &sdkmcp.ElicitResult{Action: "ACCEPT", Content: map[string]any{"approve": true}}, tool.CodeApprovalDenied},
		{"declined but approving", mcp.ApprovalInputKey, &sdkmcp.ElicitResult{Action: "decline", Content: map[string]any{"approve": true}}, tool.CodeApprovalDenied},
		{"another key", "cmdbridge/Approval", &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, ""},
	} {
		res := answer(tc.key, tc.r)
		if tc.code == "" {
			assert.True(t, res.NeedsInput(), "%s: an answer to no question asks again", tc.name)
			continue
		}
		out := mcptest.DecodeResult(t, res)
		require.NotNil(t, out.Error, tc.name)
		assert.Equal(t, tc.code, out.Error.Code, "%s: %s", tc.name, out.Error.Message)
	}
	for _, r := range seen.list() {
		assert.NotEqual(t, "approved", r.Receipt.Decision, "%+v", r.Receipt)
		assert.Nil(t, r.Output.Data, "fx:wipe never ran")
	}

	// The same well-formed answer and state, from a client that cannot elicit.
	plain := connectVersion(t, k, "2026-07-28", nil)
	res, err := plain.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_wipe", Arguments: map[string]any{},
		InputResponses: sdkmcp.InputResponseMap{mcp.ApprovalInputKey: &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}},
		RequestState:   state})
	require.NoError(t, err)
	out := mcptest.DecodeResult(t, res)
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeApprovalRequired, out.Error.Code, out.Error.Message)

	// And the honest answer runs it: the cases above failed for what they sent.
	out = mcptest.DecodeResult(t, answer(mcp.ApprovalInputKey, &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}))
	require.True(t, out.Success, "%+v", out.Error)
}

// TestRedTeamAnApprovalNeverOverridesADenial: the attack is a client that approves
// everything, and sends an approval with the call before being asked, to a tool the
// policy denies and to one governance disabled. Expected: POLICY_DENIED and
// TOOL_DISABLED; the client is never asked and nothing runs.
func TestRedTeamAnApprovalNeverOverridesADenial(t *testing.T) {
	var seen results
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace:  t.TempDir(),
			Governance: kernel.Governance{Disabled: []string{"fx:off"}},
			Policy:     append([]kernel.Rule{{Name: "no-wipe", Tool: "fx:wipe", Decision: kernel.Deny}}, kernel.DefaultPolicy()...),
			Evidence:   kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
			OnResult:   seen.add,
		},
		Commands: fixtureCommands(t),
		Native:   fixtureNative(t),
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	for _, v := range protocolVersions {
		client := &elicitingClient{answer: &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
		cs := connectVersion(t, k, v, &sdkmcp.ClientOptions{ElicitationHandler: client.handle})
		yes := sdkmcp.InputResponseMap{mcp.ApprovalInputKey: &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
		for name, code := range map[string]string{"fx_wipe": tool.CodePolicyDenied, "fx_off": tool.CodeToolDisabled} {
			for _, pre := range []sdkmcp.InputResponseMap{nil, yes} {
				res, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{Name: name, Arguments: map[string]any{},
					InputResponses: pre, RequestState: "forged"})
				require.NoError(t, err)
				out := mcptest.DecodeResult(t, res)
				require.NotNil(t, out.Error, "%s %s", v, name)
				assert.Equal(t, code, out.Error.Code, "%s %s: %s", v, name, out.Error.Message)
			}
		}
		assert.Empty(t, client.questions(), "%s: nobody is asked about a denial", v)
	}
	for _, r := range seen.list() {
		assert.Equal(t, evidence.StatusRefused, r.Receipt.Status, "%+v", r.Receipt)
	}
}

// TestRedTeamUnansweredApprovalHoldsNothing: the attack is a client that declares
// elicitation and never answers the question (protocol 2025-11-25: the SDK asks by
// elicitation/create and waits), hoping to pin the server: a slot, the workspace write
// lock, the session. Expected: the asking round ended in the kernel before the question
// went out (nothing runs, nothing is held), other calls of the session go on, writes
// included, and cancelling the call ends the wait without running anything.
func TestRedTeamUnansweredApprovalHoldsNothing(t *testing.T) {
	var seen results
	k := newFixtureKernel(t, t.TempDir(), seen.add)
	t.Cleanup(func() { _ = k.Close() })
	asked := make(chan struct{}, 1)
	silent := func(ctx context.Context, _ *sdkmcp.ElicitRequest) (*sdkmcp.ElicitResult, error) {
		asked <- struct{}{}
		<-ctx.Done() // never answers
		return nil, ctx.Err()
	}
	cs := connectVersion(t, k, "2025-11-25", &sdkmcp.ClientOptions{ElicitationHandler: silent})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_wipe", Arguments: map[string]any{}})
		errc <- err
	}()
	select {
	case <-asked:
	case <-time.After(10 * time.Second):
		t.Fatal("the question never came")
	}
	for i := 0; i < 3; i++ {
		out := callRaw(t, cs, "fx_write", `{"path":"w.txt"}`)
		require.True(t, out.Success, "a write goes on while the question waits: %+v", out.Error)
	}
	cancel()
	require.Error(t, <-errc)
	out := callRaw(t, cs, "fx_echo", `{"text":"after"}`)
	require.True(t, out.Success, "%+v", out.Error)
	var wipes []kernel.Result
	for _, r := range seen.list() {
		if r.Receipt.Tool == "fx:wipe" {
			wipes = append(wipes, r)
		}
	}
	require.Len(t, wipes, 1, "only the asking round reached the kernel")
	assert.Equal(t, tool.CodeApprovalRequired, wipes[0].Receipt.ErrorCode)
}

// TestRedTeamStdioLateAndRepeatedApprovals: the attack, on stdio, is to answer the
// elicitation/create of a call after cancelling that call, to answer it twice, and to
// send responses nobody asked for (an unknown id, an error), hoping a late or stray
// answer approves something. Expected: the cancelled call gets no response and never
// runs, the stray responses are ignored, the session goes on, and a client that
// closes stdin with a question unanswered gets a server that stops.
func TestRedTeamStdioLateAndRepeatedApprovals(t *testing.T) {
	const initEliciting = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"0"}}}`
	start := func(t *testing.T) *rawChild {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		t.Cleanup(cancel)
		c := startRawChild(ctx, t)
		c.send(initEliciting)
		require.NotNil(t, c.next()["result"])
		c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		return c
	}
	question := func(c *rawChild) any {
		for {
			m := c.next()
			if m["method"] == "elicitation/create" {
				require.NotNil(t, m["id"], m)
				return m["id"]
			}
			t.Fatalf("expected the question, got %v", m)
		}
	}
	yes := func(id any) string {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id,
			"result": map[string]any{"action": "accept", "content": map[string]any{"approve": true}}})
		return string(b)
	}

	t.Run("late and twice", func(t *testing.T) {
		c := start(t)
		c.send(callLine(1, "fx_wipe", `{}`, ""))
		q := question(c)
		c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"changed my mind"}}`)
		c.send(callLine(2, "fx_echo", `{"text":"between"}`, ""))
		// The server withdraws its question (notifications/cancelled) before or after
		// the echo's answer.
		m := c.next()
		if m["method"] == "notifications/cancelled" {
			m = c.next()
		}
		require.EqualValues(t, 2, m["id"], m)
		c.send(yes(q))
		c.send(yes(q))
		c.send(`{"jsonrpc":"2.0","id":987654,"result":{"action":"accept","content":{"approve":true}}}`)
		c.send(`{"jsonrpc":"2.0","id":"x","error":{"code":-32000,"message":"stray"}}`)
		c.send(callLine(3, "fx_echo", `{"text":"after"}`, ""))
		m = c.next()
		if m["method"] == "notifications/cancelled" {
			m = c.next()
		}
		require.EqualValues(t, 3, m["id"], m)
		assert.Contains(t, fmt.Sprint(m["result"]), "after")
		rest := c.rest()
		assert.NotContains(t, byID(rest), 1.0, "no response for the cancelled call: %v", rest)
		assert.NotContains(t, fmt.Sprint(rest), "wiped")
	})
	t.Run("never answered", func(t *testing.T) {
		c := start(t)
		c.send(callLine(1, "fx_wipe", `{}`, ""))
		question(c)
		began := time.Now()
		rest := c.rest() // closes stdin; the server must stop though a question is open
		assert.Less(t, time.Since(began), 20*time.Second)
		assert.NotContains(t, fmt.Sprint(rest), "wiped")
	})
}

// TestRedTeamStdioHostileFraming: the attack is framing meant to break or wedge the
// stdio session: a second initialize (to renegotiate the session), arguments nested
// thousands deep (a parser's stack), a 10 MB argument, and a line over the 16 MiB
// limit. Expected: each is answered (an error, or the call's result, cut to the result
// cap) and the session goes on answering the requests after it.
func TestRedTeamStdioHostileFraming(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := startRawChild(ctx, t)
	c.initialize()
	answer := func(id int) map[string]any {
		t.Helper()
		m := c.next()
		require.EqualValues(t, id, m["id"], "%.300v", m)
		return m
	}
	errorCode := func(m map[string]any) any {
		e, _ := m["error"].(map[string]any)
		return e["code"]
	}
	nested := func(depth int) string {
		return `{"text":"x","deep":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`
	}
	alive := func(id int) {
		t.Helper()
		c.send(callLine(id, "fx_echo", fmt.Sprintf(`{"text":"alive %d"}`, id), ""))
		assert.Contains(t, fmt.Sprint(answer(id)["result"]), fmt.Sprintf("alive %d", id))
	}

	c.send(strings.Replace(initLine, `"id":0`, `"id":1`, 1))
	assert.NotNil(t, answer(1)["error"], "a second initialize is refused")
	alive(2)

	c.send(callLine(3, "fx_echo", nested(900), "")) // under the SDK's depth limit: the kernel refuses it
	m := answer(3)
	assert.Contains(t, fmt.Sprint(m["result"]), tool.CodeInvalidInput)
	c.send(callLine(4, "fx_echo", nested(5000), "")) // over the SDK's limit of 1000
	assert.NotNil(t, answer(4)["error"])
	c.send(callLine(5, "fx_echo", nested(20000), "")) // over encoding/json's own limit
	assert.EqualValues(t, -32700, errorCode(c.next()))
	alive(6)

	c.send(callLine(7, "fx_echo", `{"text":"`+strings.Repeat("y", 10<<20)+`"}`, ""))
	res := answer(7)["result"].(map[string]any)
	assert.Contains(t, fmt.Sprint(res["structuredContent"]), "truncated")
	c.send(callLine(8, "fx_echo", `{"text":"`+strings.Repeat("z", 17<<20)+`"}`, ""))
	assert.EqualValues(t, -32600, errorCode(c.next()))
	alive(9)
	c.rest()
}

// TestRedTeamCallsAreBounded: a client may send calls as fast as it likes, and every
// one used to run at once (500 one-second calls ended in 1.2 s), each perhaps a
// program. Expected: with Config.MaxConcurrentCalls 2, two run and the others wait; a
// call that ends frees its slot for a waiting one; a waiting call that is cancelled
// never runs.
func TestRedTeamCallsAreBounded(t *testing.T) {
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	cs := connectInMemoryWith(t, k, nil, mcp.Config{MaxConcurrentCalls: 2})
	// fx:block's start signal is shared: leave none behind for the next test.
	t.Cleanup(func() {
		select {
		case <-blockStarted:
		default:
		}
	})
	before := blockRuns.Load()
	runs := func() int32 { return blockRuns.Load() - before }
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(10 * time.Millisecond) {
			require.True(t, time.Now().Before(deadline), "waited a minute for %s", what)
		}
	}
	var cancels []context.CancelFunc
	t.Cleanup(func() {
		for _, c := range cancels {
			c()
		}
	})
	start := func() context.CancelFunc {
		ctx, cancel := context.WithCancel(context.Background())
		cancels = append(cancels, cancel)
		go func() { _, _ = cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_block", Arguments: map[string]any{}}) }()
		return cancel
	}
	first := start()
	waitFor("the first call to run", func() bool { return runs() == 1 })
	start()
	waitFor("the second call to run", func() bool { return runs() == 2 })
	third, fourth := start(), start()
	time.Sleep(200 * time.Millisecond) // were they let through, they would be running by now
	assert.EqualValues(t, 2, blockRunning.Load(), "more calls ran than the bound")
	assert.EqualValues(t, 2, runs())

	first()
	waitFor("a waiting call to take the freed slot", func() bool { return runs() == 3 })
	third()
	fourth()
	waitFor("the cancelled calls to end", func() bool { return blockRunning.Load() == 1 })
	time.Sleep(200 * time.Millisecond)
	assert.EqualValues(t, 3, runs(), "a call cancelled while it waited ran")
}
