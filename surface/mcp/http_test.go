package mcp_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/tool"
)

func TestStreamableHTTP(t *testing.T) {
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	h, err := mcp.HTTPHandler(k, testCaller)
	require.NoError(t, err)
	srv := httptest.NewServer(h) // listens on 127.0.0.1
	defer srv.Close()
	require.True(t, strings.HasPrefix(srv.URL, "http://127.0.0.1:"), srv.URL)

	ctx := context.Background()
	transport := &sdkmcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: srv.Client()}
	cs, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "http-test", Version: "v0"}, nil).Connect(ctx, transport, nil)
	require.NoError(t, err)

	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	assert.Len(t, tools.Tools, 9)

	res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_greet", Arguments: map[string]any{"name": "Ada"}})
	require.NoError(t, err)
	out := decodeResult(t, res)
	require.True(t, out.Success, "%+v", out.Error)
	data, err := json.Marshal(out.Data)
	require.NoError(t, err)
	assert.JSONEq(t, `{"greeting":"hello, Ada"}`, string(data))

	res, err = cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_wipe", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Equal(t, tool.CodeApprovalRequired, decodeResult(t, res).Error.Code)

	_, err = cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "nope", Arguments: map[string]any{}})
	assert.ErrorContains(t, err, "unknown tool")

	require.NoError(t, cs.Close())
	srv.Client().CloseIdleConnections()
}
