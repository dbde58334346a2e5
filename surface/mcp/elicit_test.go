package mcp_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/surface/mcp/mcptest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// protocolVersions are the two ways an approval question travels: as an input request
// the client fulfils and retries with (2026-07-28, multi round-trip), and as an
// elicitation/create request the SDK sends on the server's behalf (2025-11-25).
var protocolVersions = []string{"2026-07-28", "2025-11-25"}

// elicitingClient answers approval questions with answer and records them.
type elicitingClient struct {
	mu     sync.Mutex
	asked  []*sdkmcp.ElicitParams
	answer *sdkmcp.ElicitResult
}

func (c *elicitingClient) handle(_ context.Context, req *sdkmcp.ElicitRequest) (*sdkmcp.ElicitResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked = append(c.asked, req.Params)
	return c.answer, nil
}

func (c *elicitingClient) questions() []*sdkmcp.ElicitParams {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*sdkmcp.ElicitParams(nil), c.asked...)
}

// connectVersion serves k to an SDK client speaking protocol version v.
func connectVersion(t *testing.T, k *kernel.Kernel, v string, copts *sdkmcp.ClientOptions) *sdkmcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	srv, err := mcp.NewServer(k, testCaller, mcp.Config{})
	require.NoError(t, err)
	st, ct := sdkmcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "elicit-client", Version: "v0"}, copts).
		Connect(ctx, ct, &sdkmcp.ClientSessionOptions{ProtocolVersion: v})
	require.NoError(t, err)
	require.Equal(t, v, cs.InitializeResult().ProtocolVersion)
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
	return cs
}

// results collects the kernel's results, in order.
type results struct {
	mu  sync.Mutex
	all []kernel.Result
}

func (r *results) add(_ kernel.Request, res kernel.Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.all = append(r.all, res)
}

func (r *results) list() []kernel.Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]kernel.Result(nil), r.all...)
}

// TestElicitationDecidesAnAsk: a client that can elicit is asked to approve fx:wipe
// (destructive, so the default policy asks); approving runs it, anything else is
// APPROVAL_DENIED, and nothing runs before the answer.
func TestElicitationDecidesAnAsk(t *testing.T) {
	for _, v := range protocolVersions {
		for _, tc := range []struct {
			name   string
			answer *sdkmcp.ElicitResult
			code   string
		}{
			{"accept and approve", &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, ""},
			{"accept without approving", &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": false}}, tool.CodeApprovalDenied},
			{"decline", &sdkmcp.ElicitResult{Action: "decline"}, tool.CodeApprovalDenied},
			{"cancel", &sdkmcp.ElicitResult{Action: "cancel"}, tool.CodeApprovalDenied},
		} {
			t.Run(v+"/"+tc.name, func(t *testing.T) {
				var seen results
				k := newFixtureKernel(t, t.TempDir(), seen.add)
				client := &elicitingClient{answer: tc.answer}
				cs := connectVersion(t, k, v, &sdkmcp.ClientOptions{ElicitationHandler: client.handle})
				res, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{Name: "fx_wipe", Arguments: map[string]any{}})
				require.NoError(t, err)
				out := mcptest.DecodeResult(t, res)

				asked := client.questions()
				require.Len(t, asked, 1, "one question per call")
				assert.Contains(t, asked[0].Message, "fx:wipe")
				assert.Contains(t, asked[0].Message, "default-destructive-ask")
				assert.Contains(t, asked[0].Message, "destructive")

				recs := seen.list()
				require.Len(t, recs, 2, "the asking round and the answered round each leave a receipt")
				assert.Equal(t, tool.CodeApprovalRequired, recs[0].Receipt.ErrorCode, "the first round runs nothing")
				assert.Equal(t, "ask", recs[0].Receipt.Decision)
				if tc.code == "" {
					require.True(t, out.Success, "%+v", out.Error)
					assert.Equal(t, "wiped", out.Data)
					assert.Equal(t, "approved", recs[1].Receipt.Decision)
					return
				}
				require.NotNil(t, out.Error)
				assert.Equal(t, tc.code, out.Error.Code, out.Error.Message)
				assert.True(t, res.IsError)
				assert.Equal(t, "rejected", recs[1].Receipt.Decision)
			})
		}
	}
}

// TestWithoutElicitationAnAskIsApprovalRequired: a client without the capability is not
// asked; the call is refused at once, naming the rule and how to allow the tool.
func TestWithoutElicitationAnAskIsApprovalRequired(t *testing.T) {
	for _, v := range protocolVersions {
		t.Run(v, func(t *testing.T) {
			var seen results
			k := newFixtureKernel(t, t.TempDir(), seen.add)
			cs := connectVersion(t, k, v, nil)
			res, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{Name: "fx_wipe", Arguments: map[string]any{}})
			require.NoError(t, err)
			out := mcptest.DecodeResult(t, res)
			require.NotNil(t, out.Error)
			assert.Equal(t, tool.CodeApprovalRequired, out.Error.Code)
			assert.Contains(t, out.Error.Message, "default-destructive-ask")
			details := out.Error.Details.(map[string]any)
			assert.Equal(t, "default-destructive-ask", details["rule"])
			assert.Contains(t, details["config"], "tool: fx:wipe")
			require.Len(t, seen.list(), 1)
			assert.False(t, seen.list()[0].Receipt.Decision == "approved")
		})
	}
}

// TestElicitationOnlyForAsk: a call the policy allows runs without a question, even for
// a client that could be asked.
func TestElicitationOnlyForAsk(t *testing.T) {
	for _, v := range protocolVersions {
		t.Run(v, func(t *testing.T) {
			k := newFixtureKernel(t, t.TempDir(), nil)
			client := &elicitingClient{answer: &sdkmcp.ElicitResult{Action: "decline"}}
			cs := connectVersion(t, k, v, &sdkmcp.ClientOptions{ElicitationHandler: client.handle})
			res, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{Name: "fx_echo", Arguments: map[string]any{"text": "hi"}})
			require.NoError(t, err)
			out := mcptest.DecodeResult(t, res)
			require.True(t, out.Success, "%+v", out.Error)
			assert.Empty(t, client.questions())
		})
	}
}

// TestAnApprovalAnswersOnlyItsOwnCall drives the multi round-trip by hand: an answer
// whose requestState the server did not issue for this tool and input does not approve
// the retried call; the issued one does, once.
func TestAnApprovalAnswersOnlyItsOwnCall(t *testing.T) {
	var seen results
	k := newFixtureKernel(t, t.TempDir(), seen.add)
	client := &elicitingClient{answer: &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
	cs := connectVersion(t, k, "2026-07-28", &sdkmcp.ClientOptions{ElicitationHandler: client.handle,
		MultiRoundTrip: &sdkmcp.MultiRoundTripOptions{Disabled: true}})
	ctx := context.Background()
	first, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_write", Arguments: map[string]any{"path": "a.txt"}})
	require.NoError(t, err)
	// fx:write writes but destroys nothing: the default policy allows it, no question.
	require.False(t, first.NeedsInput())

	first, err = cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_wipe", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.True(t, first.NeedsInput())
	require.Contains(t, first.InputRequests, mcp.ApprovalInputKey)
	require.NotEmpty(t, first.RequestState)
	yes := sdkmcp.InputResponseMap{mcp.ApprovalInputKey: &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}

	forged, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_wipe", Arguments: map[string]any{},
		InputResponses: yes, RequestState: "forged"})
	require.NoError(t, err)
	out := mcptest.DecodeResult(t, forged)
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeApprovalDenied, out.Error.Code)
	assert.Contains(t, out.Error.Message, "another call")

	honest, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_wipe", Arguments: map[string]any{},
		InputResponses: yes, RequestState: first.RequestState})
	require.NoError(t, err)
	out = mcptest.DecodeResult(t, honest)
	require.True(t, out.Success, "%+v", out.Error)
	assert.Empty(t, client.questions(), "the client answered by hand")

	// The approval ran its call; sent again, it runs nothing: a person approved one call.
	ran := len(seen.list())
	replay, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_wipe", Arguments: map[string]any{},
		InputResponses: yes, RequestState: first.RequestState})
	require.NoError(t, err)
	out = mcptest.DecodeResult(t, replay)
	require.NotNil(t, out.Error, "a replayed approval ran the call again")
	assert.Equal(t, tool.CodeApprovalDenied, out.Error.Code)
	assert.Contains(t, out.Error.Message, "has run its call already")
	for _, r := range seen.list()[ran:] {
		assert.NotEqual(t, "approved", r.Receipt.Decision, "%+v", r.Receipt)
	}
}

// TestElicitationOverStreamableHTTP: the same question and answer over the streamable
// HTTP transport, whichever version the handler negotiates.
func TestElicitationOverStreamableHTTP(t *testing.T) {
	for _, v := range protocolVersions {
		t.Run(v, func(t *testing.T) {
			k := newFixtureKernel(t, t.TempDir(), nil)
			h, err := mcp.HTTPHandler(k, testCaller, mcp.Config{})
			require.NoError(t, err)
			srv := httptest.NewServer(h) // listens on 127.0.0.1
			defer srv.Close()
			require.True(t, strings.HasPrefix(srv.URL, "http://127.0.0.1:"), srv.URL)
			client := &elicitingClient{answer: &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}}
			ctx := context.Background()
			transport := &sdkmcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: srv.Client()}
			cs, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "http-elicit", Version: "v0"},
				&sdkmcp.ClientOptions{ElicitationHandler: client.handle}).Connect(ctx, transport, &sdkmcp.ClientSessionOptions{ProtocolVersion: v})
			require.NoError(t, err)
			defer srv.Client().CloseIdleConnections()
			defer func() { _ = cs.Close() }()
			// The streamable handler negotiates the version it serves sessions with.
			t.Logf("asked for %s, negotiated %s", v, cs.InitializeResult().ProtocolVersion)
			res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_wipe", Arguments: map[string]any{}})
			require.NoError(t, err)
			out := mcptest.DecodeResult(t, res)
			require.True(t, out.Success, "%+v", out.Error)
			assert.Len(t, client.questions(), 1)
		})
	}
}
