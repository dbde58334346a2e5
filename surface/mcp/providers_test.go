package mcp_test

import (
	"context"
	"testing"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/providerrules"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/surface/mcp/mcptest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// listed returns tools/list of k served in dialect d.
func listed(t *testing.T, k *kernel.Kernel, d tool.Dialect) []*sdkmcp.Tool {
	return mcptest.Listed(t, connectInMemoryWith(t, k, nil, mcp.Config{SchemaDialect: d}))
}

// TestStrictNullsMeanNotGiven: in the openai-strict dialect a host sends null for every
// optional property it does not mean to give; the call runs as without them, and a
// rule between properties is still enforced by the kernel in every dialect.
func TestStrictNullsMeanNotGiven(t *testing.T) {
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	cs := connectInMemoryWith(t, k, nil, mcp.Config{SchemaDialect: tool.DialectOpenAIStrict})
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var greet *sdkmcp.Tool
	for _, tl := range res.Tools {
		if tl.Name == "fx_greet" {
			greet = tl
		}
	}
	require.NotNil(t, greet)
	require.Equal(t, true, greet.Meta[mcp.StrictMetaKey], "fx_greet's schema is exact in strict form")
	s := mcptest.SchemaOf(t, greet)
	assert.Empty(t, providerrules.OpenAIStrict(s))
	assert.Equal(t, []any{"boolean", "null"}, s["properties"].(map[string]any)["noisy"].(map[string]any)["type"])

	call, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{
		Name: "fx_greet", Arguments: map[string]any{"name": "ada", "noisy": nil},
	})
	require.NoError(t, err)
	out := mcptest.DecodeResult(t, call)
	assert.True(t, out.Success, "%+v", out.Error)
}
