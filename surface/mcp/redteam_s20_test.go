package mcp_test

import (
	"context"
	"encoding/json"
	"testing"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
