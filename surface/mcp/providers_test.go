package mcp_test

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/providerrules"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/tool"
)

// listed returns tools/list of k served in dialect d.
func listed(t *testing.T, k *kernel.Kernel, d tool.Dialect) []*sdkmcp.Tool {
	cs := connectInMemoryWith(t, k, nil, mcp.WithSchemaDialect(d))
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	return res.Tools
}

func schemaOf(t *testing.T, tl *sdkmcp.Tool) map[string]any {
	b, err := json.Marshal(tl.InputSchema)
	require.NoError(t, err)
	var s map[string]any
	require.NoError(t, json.Unmarshal(b, &s))
	return s
}

// TestEveryProviderAcceptsTheToolList holds every tool of the corpus, as tools/list
// sends it, to each provider's documented rules: by default (portable) to OpenAI
// function calling, Anthropic, and Gemini's parameters and parametersJsonSchema; with
// the openai-strict dialect, the tools marked strict to OpenAI's strict mode too. The
// outside module is held to the same rules by TestOutsideToolsMeetProviderRules in the
// repository root.
func TestEveryProviderAcceptsTheToolList(t *testing.T) {
	k := corpusKernelView(t, t.TempDir(), kernel.View{})
	rules := providerrules.Portable
	tools := listed(t, k, tool.DialectPortable)
	require.Len(t, tools, len(k.Tools()))
	withRules := 0
	for _, tl := range tools {
		s := schemaOf(t, tl)
		for provider, check := range rules {
			assert.Empty(t, check(s), "%s: %s refuses or loses part of the schema", tl.Name, provider)
		}
		if strings.Contains(tl.Description, "Rules: ") {
			withRules++
		}
	}
	// The rules between properties are said in words instead.
	full := 0
	for _, spec := range k.Tools() {
		if spec.InputSchema.Not != nil {
			full++
		}
	}
	assert.Equal(t, full, withRules, "every tool with rules between properties states them")
	assert.Positive(t, full)

	var strict, notStrict []string
	for _, tl := range listed(t, k, tool.DialectOpenAIStrict) {
		s := schemaOf(t, tl)
		for provider, check := range rules {
			if provider == "gemini parameters" && tl.Meta[mcp.StrictMetaKey] == true {
				continue // a strict schema is for OpenAI: type lists and additionalProperties
			}
			assert.Empty(t, check(s), "%s (openai-strict dialect): %s", tl.Name, provider)
		}
		if tl.Meta[mcp.StrictMetaKey] == true {
			strict = append(strict, tl.Name)
			assert.Empty(t, providerrules.OpenAIStrict(s), "%s: marked strict", tl.Name)
		} else {
			notStrict = append(notStrict, tl.Name)
		}
	}
	// The rule functions bite: the full schema breaks them where the issue says.
	var openAIRefuses, geminiRefuses int
	for _, tl := range listed(t, k, tool.DialectFull) {
		s := schemaOf(t, tl)
		if len(providerrules.OpenAIFunction(s)) > 0 {
			openAIRefuses++
		}
		if len(providerrules.GeminiParameters(s)) > 0 {
			geminiRefuses++
		}
	}
	assert.Equal(t, full, openAIRefuses, "full dialect: OpenAI refuses every schema with a top-level not")
	assert.Equal(t, len(tools), geminiRefuses, "full dialect: Gemini refuses $schema and additionalProperties")
	sort.Strings(notStrict)
	t.Logf("openai-strict: %d of %d tools exact; not exact (rules between properties or keywords strict mode lacks): %s",
		len(strict), len(tools), strings.Join(notStrict, ", "))
}

// TestStrictNullsMeanNotGiven: in the openai-strict dialect a host sends null for every
// optional property it does not mean to give; the call runs as without them, and a
// rule between properties is still enforced by the kernel in every dialect.
func TestStrictNullsMeanNotGiven(t *testing.T) {
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	cs := connectInMemoryWith(t, k, nil, mcp.WithSchemaDialect(tool.DialectOpenAIStrict))
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
	s := schemaOf(t, greet)
	assert.Empty(t, providerrules.OpenAIStrict(s))
	assert.Equal(t, []any{"boolean", "null"}, s["properties"].(map[string]any)["noisy"].(map[string]any)["type"])

	call, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{
		Name: "fx_greet", Arguments: map[string]any{"name": "ada", "noisy": nil},
	})
	require.NoError(t, err)
	out := decodeResult(t, call)
	assert.True(t, out.Success, "%+v", out.Error)
}

// TestRulesStillEnforced: what is sent has no rules between properties, the kernel
// still refuses an input that breaks one, naming the properties.
func TestRulesStillEnforced(t *testing.T) {
	k := corpusKernelView(t, t.TempDir(), kernel.View{})
	cs := connectInMemory(t, k)
	call, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{
		Name: "delegation_list", Arguments: map[string]any{"wu": "WU-1", "initiative": "INIT-1"},
	})
	require.NoError(t, err)
	out := decodeResult(t, call)
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeInvalidInput, out.Error.Code)
	assert.Contains(t, out.Error.Message, "wu and initiative cannot be given together")
}
