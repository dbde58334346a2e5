// Package mcptest serves a kernel to the official Go SDK's client in the test's process,
// and reads what the server answers: the helpers surface/mcp's own tests and the
// integration tests share. Only tests import it.
package mcptest

import (
	"context"
	"encoding/json"
	"testing"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Client is how the test's client connects: its options, and the protocol version it
// speaks ("": the SDK's latest; the server must then agree to it).
type Client struct {
	Options         *sdkmcp.ClientOptions
	ProtocolVersion string
}

// Connect serves k, as caller, to an SDK client over the SDK's in-memory transports
// (the server configured by cfg, named cmdbridge-test unless it names itself) and
// returns the client's session, closed when t ends. c may be nil.
func Connect(t testing.TB, k *kernel.Kernel, caller kernel.Caller, c *Client, cfg mcp.Config) *sdkmcp.ClientSession {
	t.Helper()
	if c == nil {
		c = &Client{}
	}
	ctx := context.Background()
	if cfg.Name == "" {
		cfg.Name, cfg.Version = "cmdbridge-test", "v0"
	}
	srv, err := mcp.NewServer(k, caller, cfg)
	require.NoError(t, err)
	st, ct := sdkmcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	require.NoError(t, err)
	var sopts *sdkmcp.ClientSessionOptions
	if c.ProtocolVersion != "" {
		sopts = &sdkmcp.ClientSessionOptions{ProtocolVersion: c.ProtocolVersion}
	}
	cs, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "test-client", Version: "v0"}, c.Options).Connect(ctx, ct, sopts)
	require.NoError(t, err)
	if c.ProtocolVersion != "" {
		require.Equal(t, c.ProtocolVersion, cs.InitializeResult().ProtocolVersion)
	}
	t.Cleanup(func() {
		assert.NoError(t, cs.Close())
		_ = ss.Wait()
	})
	return cs
}

// DecodeResult checks that a call result's two content forms (text and structured)
// carry the same Output, that isError mirrors its success and that it names a receipt,
// and returns the Output.
func DecodeResult(t testing.TB, res *sdkmcp.CallToolResult) tool.Output {
	t.Helper()
	require.Len(t, res.Content, 1)
	text, ok := res.Content[0].(*sdkmcp.TextContent)
	require.True(t, ok, "content is text, got %T", res.Content[0])
	var out tool.Output
	require.NoError(t, json.Unmarshal([]byte(text.Text), &out), text.Text)
	structured, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	assert.JSONEq(t, text.Text, string(structured), "structured content is the same Output")
	assert.Equal(t, !out.Success, res.IsError, "isError mirrors success")
	assert.NotEmpty(t, res.Meta[mcp.ReceiptMetaKey], "every call has a receipt")
	return out
}

// Listed is tools/list as cs receives it.
func Listed(t testing.TB, cs *sdkmcp.ClientSession) []*sdkmcp.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	return res.Tools
}

// SchemaOf is a listed tool's input schema as generic JSON.
func SchemaOf(t testing.TB, tl *sdkmcp.Tool) map[string]any {
	t.Helper()
	b, err := json.Marshal(tl.InputSchema)
	require.NoError(t, err)
	var s map[string]any
	require.NoError(t, json.Unmarshal(b, &s))
	return s
}
