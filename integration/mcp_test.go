package integration_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/mcpclienttest"
	"github.com/cmdbridge/cmdbridge/internal/providerrules"
	"github.com/cmdbridge/cmdbridge/internal/tailbuf"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/surface/mcp/mcptest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// connectInMemory serves k to an SDK client over the SDK's in-memory transports.
func connectInMemory(t testing.TB, k *kernel.Kernel) *sdkmcp.ClientSession {
	return connectInMemoryWith(t, k, "", mcp.Config{})
}

// connectInMemoryWith also takes the protocol version the client speaks ("": the
// SDK's latest) and the server's configuration.
func connectInMemoryWith(t testing.TB, k *kernel.Kernel, version string, cfg mcp.Config) *sdkmcp.ClientSession {
	t.Helper()
	return mcptest.Connect(t, k, testCaller, &mcptest.Client{ProtocolVersion: version}, cfg)
}

// listed returns tools/list of k served in dialect d.
func listed(t *testing.T, k *kernel.Kernel, d tool.Dialect) []*sdkmcp.Tool {
	return mcptest.Listed(t, connectInMemoryWith(t, k, "", mcp.Config{SchemaDialect: d}))
}

// TestEveryProviderAcceptsTheToolList holds every tool of the corpus, as tools/list
// sends it, to each provider's documented rules: by default (portable) to OpenAI
// function calling, Anthropic, and Gemini's parameters and parametersJsonSchema; with
// the openai-strict dialect, the tools marked strict to OpenAI's strict mode too. The
// outside module is held to the same rules by TestOutsideToolsMeetProviderRules in the
// repository root.
func TestEveryProviderAcceptsTheToolList(t *testing.T) {
	k := newCorpusKernel(t, kernel.View{})
	rules := providerrules.Portable
	tools := listed(t, k, tool.DialectPortable)
	require.Len(t, tools, len(k.Tools()))
	withRules := 0
	for _, tl := range tools {
		s := mcptest.SchemaOf(t, tl)
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
		s := mcptest.SchemaOf(t, tl)
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
		s := mcptest.SchemaOf(t, tl)
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

// TestRulesStillEnforced: what is sent of a corpus tool has no rules between
// properties, the kernel still refuses an input that breaks one, naming the properties.
func TestRulesStillEnforced(t *testing.T) {
	cs := connectInMemory(t, newCorpusKernel(t, kernel.View{}))
	call, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{
		Name: "delegation_list", Arguments: map[string]any{"wu": "WU-1", "initiative": "INIT-1"},
	})
	require.NoError(t, err)
	out := mcptest.DecodeResult(t, call)
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeInvalidInput, out.Error.Code)
	assert.Contains(t, out.Error.Message, "wu and initiative cannot be given together")
}

// TestHarmlessModesRunOverMCP is the users' report over the real corpus and a client
// that cannot be asked: the harmless modes of destructive tools are not refused, their
// destructive modes are, with the rule and the harmless alternative named.
func TestHarmlessModesRunOverMCP(t *testing.T) {
	cs := connectInMemoryWith(t, newCorpusKernel(t, kernel.View{}), "2026-07-28", mcp.Config{})
	call := func(name string, args map[string]any) tool.Output {
		res, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{Name: name, Arguments: args})
		require.NoError(t, err)
		return mcptest.DecodeResult(t, res)
	}
	for _, tc := range []struct {
		name string
		args map[string]any
	}{
		{"state_doctor", map[string]any{}},
		{"state_doctor", map[string]any{"fix": true, "dry_run": true}},
		{"wu_repair", map[string]any{"all": true, "check": true}},
		{"wu_prune", map[string]any{}},
		{"wu_unlock_lane", map[string]any{"list": true}},
		{"wu_delete", map[string]any{"id": []string{"WU-1"}, "dry_run": true}},
		{"state_bootstrap", map[string]any{}},
		{"backlog_prune", map[string]any{}},
	} {
		out := call(tc.name, tc.args)
		if out.Error != nil {
			// The empty workspace may fail the command itself; the policy let it run.
			assert.NotContains(t, []string{tool.CodeApprovalRequired, tool.CodePolicyDenied}, out.Error.Code,
				"%s %v: %s", tc.name, tc.args, out.Error.Message)
		}
	}
	out := call("state_doctor", map[string]any{"fix": true})
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeApprovalRequired, out.Error.Code)
	details := out.Error.Details.(map[string]any)
	assert.Equal(t, "default-destructive-ask", details["rule"])
	assert.Contains(t, details["allowed_without"], "without fix (read-only)")
	assert.Contains(t, details["config"], "tool: state:doctor")
}

// TestOfficialTypeScriptClient drives the stdio server (this test binary as a child
// process, like cmdbridge mcp) and the streamable HTTP handler serving the whole
// delivery corpus with the official TypeScript SDK client through tools/list, so every
// real schema meets the SDK's validation (surface/mcp's test of the same name takes
// its fixture through every kind of call).
func TestOfficialTypeScriptClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("needs Node.js (node on PATH) to run the official TypeScript MCP client")
	}
	dir := mcpclienttest.Dir(t)
	sdk := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")
	if _, err := os.Stat(sdk); err != nil {
		t.Fatalf("node is installed but %s is missing: run `make deps` (npm ci --prefix testdata/mcpclient)", sdk)
	}
	k := newCorpusKernel(t, kernel.View{})
	require.GreaterOrEqual(t, len(k.Tools()), 80, "the corpus kernel serves the delivery corpus")
	tools := strconv.Itoa(len(k.Tools()))
	conformance := func(t *testing.T, env []string, args ...string) {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, node, append([]string{"conformance.mjs"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		stderr := tailbuf.New(captureMax)
		cmd.Stderr = stderr
		out, err := cmd.Output()
		require.NoError(t, err, "node conformance.mjs %s\nstderr:\n%s", strings.Join(args, " "), stderr.String())
		var rep struct {
			Transport string `json:"transport"`
			Tools     int    `json:"tools"`
		}
		require.NoError(t, json.Unmarshal(out, &rep), string(out))
		assert.Equal(t, args[0], rep.Transport)
		assert.Equal(t, len(k.Tools()), rep.Tools, "every tool listed and accepted by the client")
	}
	t.Run("stdio", func(t *testing.T) {
		conformance(t, []string{stdioEnv + "=" + t.TempDir()}, "stdio", "corpus", tools, os.Args[0], "-test.run=^$")
	})
	t.Run("http", func(t *testing.T) {
		h, err := mcp.HTTPHandler(k, testCaller, mcp.Config{})
		require.NoError(t, err)
		srv := httptest.NewServer(h)
		defer srv.Close()
		conformance(t, nil, "http", "corpus", tools, srv.URL)
		srv.CloseClientConnections()
	})
}

// captureMax bounds what the test keeps of a child's stream (it keeps all of it).
const captureMax = 64 << 20
