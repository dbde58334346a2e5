package http_test

import (
	"context"
	"encoding/json"
	nethttp "net/http"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	surfacehttp "github.com/cmdbridge/cmdbridge/surface/http"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/tool"
)

// bearerTransport adds a token to every request of the SDK client.
type bearerTransport struct {
	tok  string
	base nethttp.RoundTripper
}

func (b bearerTransport) RoundTrip(r *nethttp.Request) (*nethttp.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.tok)
	return b.base.RoundTrip(r)
}

func connectMCP(t *testing.T, f *fixture, tok string) (*sdkmcp.ClientSession, error) {
	t.Helper()
	client := &nethttp.Client{Transport: bearerTransport{tok: tok, base: f.ts.Client().Transport}}
	transport := &sdkmcp.StreamableClientTransport{Endpoint: f.ts.URL + "/mcp", HTTPClient: client}
	return sdkmcp.NewClient(&sdkmcp.Implementation{Name: "http-test", Version: "v0"}, nil).Connect(context.Background(), transport, nil)
}

func TestMCPOverHTTPWithToken(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{})
	tok := mintToken(t, "ws-1:phone:dev-3", []string{"t:*"}, []string{"."}, nil, time.Hour)
	ctx := context.Background()

	cs, err := connectMCP(t, f, tok)
	require.NoError(t, err)
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	var got []string
	for _, tl := range list.Tools {
		got = append(got, tl.Name)
	}
	assert.ElementsMatch(t, []string{"t_echo", "t_slow", "t_write"}, got, "the token's globs and governance decide")

	res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "t_echo", Arguments: map[string]any{"text": "hi"}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	var out tool.Output
	require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*sdkmcp.TextContent).Text), &out))
	assert.Equal(t, map[string]any{"text": "hi"}, out.Data)
	assert.Equal(t, "ws-1:phone:dev-3", f.waitResult(t).Receipt.Subject)

	res, err = cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "t_write", Arguments: map[string]any{"path": "x"}})
	require.NoError(t, err)
	assert.True(t, res.IsError, "the token has no write scope")
	require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*sdkmcp.TextContent).Text), &out))
	assert.Equal(t, tool.CodeScopeDenied, out.Error.Code)

	_, err = cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "secret_peek", Arguments: map[string]any{}})
	assert.ErrorContains(t, err, "unknown tool", "a hidden tool is not callable")
}

func TestMCPOverHTTPRefusesBadTokens(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{})
	for name, tok := range map[string]string{
		"none":    "",
		"expired": mintToken(t, "ws-1", []string{"*"}, []string{"."}, nil, -time.Hour),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := connectMCP(t, f, tok)
			require.Error(t, err)
			r := f.do(t, "POST", "/mcp", tok, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
			assert.Equal(t, 401, r.Status)
		})
	}
}

// TestMCPSessionsAreScopedToTheirToken: a session id created by one token is unknown to
// another token's requests.
func TestMCPSessionsAreScopedToTheirToken(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{})
	a := mintToken(t, "ws-1", []string{"t:*"}, []string{"."}, nil, time.Hour)
	b := mintToken(t, "ws-2", []string{"**"}, []string{"."}, nil, time.Hour)
	cs, err := connectMCP(t, f, a)
	require.NoError(t, err)
	defer cs.Close()
	r := f.do(t, "POST", "/mcp", b, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		"Mcp-Session-Id", cs.ID(), "Content-Type", "application/json", "Accept", "application/json, text/event-stream")
	assert.Equal(t, 404, r.Status, r.Body)
}

// TestRedTeamOnDemandSeesOnlyTheTokensTools: with the tools served on demand, a token
// finds, describes and calls only the tools it would be listed: not one its globs leave
// out (secret_peek), nor one governance turns off (t:off).
func TestRedTeamOnDemandSeesOnlyTheTokensTools(t *testing.T) {
	f := newFixture(t, surfacehttp.Config{MCP: mcp.Config{OnDemand: true}})
	tok := mintToken(t, "ws-1", []string{"t:*"}, []string{"."}, nil, time.Hour)
	cs, err := connectMCP(t, f, tok)
	require.NoError(t, err)
	defer cs.Close()
	ctx := context.Background()
	call := func(name string, args map[string]any) tool.Output {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: name, Arguments: args})
		require.NoError(t, err)
		var out tool.Output
		require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*sdkmcp.TextContent).Text), &out))
		return out
	}
	found := call(mcp.SearchToolName, nil)
	require.True(t, found.Success, "%+v", found.Error)
	var names []string
	for _, tl := range found.Data.(map[string]any)["tools"].([]any) {
		names = append(names, tl.(map[string]any)["name"].(string))
	}
	assert.ElementsMatch(t, []string{"t_echo", "t_slow", "t_write"}, names, "a search finds what tools/list would list")
	for _, hidden := range []string{"secret_peek", "secret:peek", "t_off", "t:off"} {
		out := call(mcp.DescribeToolName, map[string]any{"name": hidden})
		require.NotNil(t, out.Error, "%s was described", hidden)
		assert.Equal(t, tool.CodeToolNotFound, out.Error.Code)
		out = call(mcp.CallToolName, map[string]any{"name": hidden, "arguments": map[string]any{}})
		require.NotNil(t, out.Error, "%s was called: %v", hidden, out.Data)
		assert.Equal(t, tool.CodeToolNotFound, out.Error.Code)
	}
	out := call(mcp.CallToolName, map[string]any{"name": "t_echo", "arguments": map[string]any{"text": "hi"}})
	require.True(t, out.Success, "%+v", out.Error)
}
