package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/internal/golden"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/surface/mcp/mcptest"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// recorder keeps the requests the kernel saw.
type recorder struct {
	mu   sync.Mutex
	reqs []kernel.Request
}

func (r *recorder) record(req kernel.Request, _ kernel.Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, req)
}

func (r *recorder) all() []kernel.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]kernel.Request(nil), r.reqs...)
}

// connectInMemory serves k to an SDK client over the SDK's in-memory transports.
func connectInMemory(t testing.TB, k *kernel.Kernel) *sdkmcp.ClientSession {
	return connectInMemoryWith(t, k, nil, mcp.Config{})
}

// connectInMemoryWith also takes the client's options and the server's configuration.
func connectInMemoryWith(t testing.TB, k *kernel.Kernel, copts *sdkmcp.ClientOptions, cfg mcp.Config) *sdkmcp.ClientSession {
	t.Helper()
	return mcptest.Connect(t, k, testCaller, &mcptest.Client{Options: copts}, cfg)
}

func TestListToolsCarriesNamesSchemasAndAnnotations(t *testing.T) {
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	cs := connectInMemory(t, k)

	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	byName := map[string]*sdkmcp.Tool{}
	var names []string
	for _, tl := range res.Tools {
		byName[tl.Name] = tl
		names = append(names, tl.Name)
	}
	sort.Strings(names)
	// Every visible kernel tool, under its MCP name; the excluded one is absent.
	assert.Equal(t, []string{"fx_big", "fx_block", "fx_echo", "fx_fail", "fx_greet", "fx_off", "fx_sleep", "fx_wipe", "fx_write"}, names)

	for _, spec := range k.Tools() {
		tl := byName[tool.MCPName(spec.Name)]
		require.NotNil(t, tl, spec.Name)
		// What is sent is the portable form (tool.Wire): the full schema less $schema,
		// additionalProperties and the rules between properties, said in words.
		w, err := tool.Wire(spec, tool.DialectPortable)
		require.NoError(t, err)
		want, err := json.Marshal(w.InputSchema)
		require.NoError(t, err)
		got, err := json.Marshal(tl.InputSchema)
		require.NoError(t, err)
		assert.JSONEq(t, string(want), string(got), "%s: the portable schema", spec.Name)
		assert.NotContains(t, string(got), `"$schema"`, spec.Name)
		assertNoBooleanSubschemas(t, spec.Name+" input", got)
		assert.Equal(t, w.Description, tl.Description, spec.Name)
		// No declared data schema: no output schema (the generic envelope says nothing).
		assert.Nil(t, tl.OutputSchema, spec.Name)

		a := tl.Annotations
		require.NotNil(t, a, spec.Name)
		assert.Equal(t, spec.Annotations.ReadOnlyHint, a.ReadOnlyHint, spec.Name)
		// Stated explicitly: absent, the protocol would read it as true.
		require.NotNil(t, a.OpenWorldHint, spec.Name)
		assert.Equal(t, spec.Annotations.OpenWorldHint, *a.OpenWorldHint, spec.Name)
		assert.Equal(t, spec.Annotations.IdempotentHint, a.IdempotentHint, spec.Name)
		if spec.Annotations.ReadOnlyHint {
			// Meaningful only for a tool that is not read-only: not sent.
			assert.Nil(t, a.DestructiveHint, spec.Name)
		} else {
			require.NotNil(t, a.DestructiveHint, spec.Name)
			assert.Equal(t, spec.Annotations.DestructiveHint, *a.DestructiveHint, spec.Name)
		}
		assert.Equal(t, spec.Annotations.Title, a.Title, spec.Name)
		assert.Equal(t, spec.Annotations.Title, tl.Title, spec.Name)
	}
	assert.Equal(t, "Echo", byName["fx_echo"].Annotations.Title)
	assert.Empty(t, byName["fx_greet"].Annotations.Title, "no declared title: none sent, the name says it")
	assert.True(t, *byName["fx_wipe"].Annotations.DestructiveHint)
	// The legacy command's flags became its schema (required --name, no --json).
	greet, _ := json.Marshal(byName["fx_greet"].InputSchema)
	assert.Contains(t, string(greet), `"required":["name"]`)
	assert.NotContains(t, string(greet), `"json"`)

	golden.JSON(t, "tools_list.json", res.Tools)
}

func TestCallToolResults(t *testing.T) {
	cases := []struct {
		name     string
		tool     string
		args     any
		wantCode string // "" for success
		wantData string // JSON, checked on success
	}{
		{name: "native success", tool: "fx_echo", args: map[string]any{"text": "hi"},
			wantData: `{"text":"hi","interactive":false}`},
		{name: "no arguments", tool: "fx_echo", args: nil, wantData: `{"text":"","interactive":false}`},
		{name: "legacy command success", tool: "fx_greet", args: map[string]any{"name": "Ada"},
			wantData: `{"greeting":"hello, Ada"}`},
		{name: "legacy command failure", tool: "fx_greet", args: map[string]any{"name": "nobody"}, wantCode: tool.CodeNotFound},
		{name: "native tool failure", tool: "fx_fail", args: map[string]any{}, wantCode: tool.CodeNotFound},
		{name: "invalid input", tool: "fx_echo", args: map[string]any{"text": "hi", "extra": 1}, wantCode: tool.CodeInvalidInput},
		{name: "missing required input", tool: "fx_greet", args: map[string]any{}, wantCode: tool.CodeInvalidInput},
		{name: "scope refusal", tool: "fx_write", args: map[string]any{"path": "../outside.txt"}, wantCode: tool.CodeScopeDenied},
		{name: "governance refusal", tool: "fx_off", args: map[string]any{}, wantCode: tool.CodeToolDisabled},
		{name: "approval refusal", tool: "fx_wipe", args: map[string]any{}, wantCode: tool.CodeApprovalRequired},
	}
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	cs := connectInMemory(t, k)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
			require.NoError(t, err, "a tool outcome is never a protocol error")
			out := mcptest.DecodeResult(t, res)
			if tc.wantCode == "" {
				require.True(t, out.Success, "%+v", out.Error)
				data, err := json.Marshal(out.Data)
				require.NoError(t, err)
				assert.JSONEq(t, tc.wantData, string(data))
				return
			}
			assert.True(t, res.IsError)
			require.NotNil(t, out.Error)
			assert.Equal(t, tc.wantCode, out.Error.Code, out.Error.Message)
		})
	}
}

func TestCallerComesFromTheServerNeverTheRequest(t *testing.T) {
	var rec recorder
	k := newFixtureKernel(t, t.TempDir(), rec.record)
	t.Cleanup(func() { _ = k.Close() })
	cs := connectInMemory(t, k)

	params := &sdkmcp.CallToolParams{
		Name:      "fx_echo",
		Arguments: map[string]any{"text": "x"},
		Meta:      sdkmcp.Meta{"caller": "root", "subject": "root", "interactive": true},
	}
	res, err := cs.CallTool(context.Background(), params)
	require.NoError(t, err)
	assert.False(t, res.IsError)
	reqs := rec.all()
	require.Len(t, reqs, 1)
	assert.Equal(t, testCaller, reqs[0].Caller)
	assert.False(t, reqs[0].Interactive)
	assert.Equal(t, "fx:echo", reqs[0].Tool, "the MCP name resolves to the canonical name")
}

func TestProtocolErrorsStayProtocolErrors(t *testing.T) {
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	cs := connectInMemory(t, k)
	for _, name := range []string{"nope", "fx_hidden", "fx:echo"} {
		_, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{Name: name, Arguments: map[string]any{}})
		assert.ErrorContains(t, err, "unknown tool", name)
	}
	// The session is still usable afterwards.
	res, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{Name: "fx_echo", Arguments: map[string]any{}})
	require.NoError(t, err)
	assert.False(t, res.IsError)
}

func TestClientCancellationCancelsTheKernelCall(t *testing.T) {
	results := make(chan kernel.Result, 1)
	k := newFixtureKernel(t, t.TempDir(), func(_ kernel.Request, res kernel.Result) { results <- res })
	t.Cleanup(func() { _ = k.Close() })
	cs := connectInMemory(t, k)

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_block", Arguments: map[string]any{}})
		errc <- err
	}()
	select { // cancel once the tool is running inside the kernel
	case <-blockStarted:
	case <-time.After(10 * time.Second):
		t.Fatal("fx:block never started")
	}
	cancel()
	require.ErrorIs(t, <-errc, context.Canceled)
	res := <-results
	require.NotNil(t, res.Output.Error)
	assert.Equal(t, tool.CodeCancelled, res.Output.Error.Code)
	// The message names how long the call ran, not the deadline it never reached.
	assert.Regexp(t, `^fx:block: cancelled after \d`, res.Output.Error.Message)
	assert.NotContains(t, res.Output.Error.Message, tool.DefaultTimeout.String())
}

func TestCallAsksForItsTimeout(t *testing.T) {
	cases := []struct {
		name     string
		sleepMS  int
		meta     sdkmcp.Meta
		wantCode string // "" for success
		wantMsg  string
	}{
		{name: "the default is short", sleepMS: 1500, wantCode: tool.CodeTimeout,
			wantMsg: "fx:sleep: timed out after " + sleepDefaultTimeout.String()},
		{name: "a longer timeout asked for", sleepMS: 1500, meta: sdkmcp.Meta{mcp.TimeoutMetaKey: 10_000}},
		{name: "a shorter one", sleepMS: 1500, meta: sdkmcp.Meta{mcp.TimeoutMetaKey: 50}, wantCode: tool.CodeTimeout,
			wantMsg: "fx:sleep: timed out after 50ms"},
		{name: "clamped to the tool's maximum", sleepMS: 1, meta: sdkmcp.Meta{mcp.TimeoutMetaKey: 3_600_000}},
		{name: "not a number", sleepMS: 1, meta: sdkmcp.Meta{mcp.TimeoutMetaKey: "soon"}, wantCode: tool.CodeInvalidInput,
			wantMsg: mcp.TimeoutMetaKey},
		{name: "not positive", sleepMS: 1, meta: sdkmcp.Meta{mcp.TimeoutMetaKey: 0}, wantCode: tool.CodeInvalidInput},
	}
	var rec recorder
	k := newFixtureKernel(t, t.TempDir(), rec.record)
	t.Cleanup(func() { _ = k.Close() })
	cs := connectInMemory(t, k)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{Name: "fx_sleep",
				Arguments: map[string]any{"ms": tc.sleepMS}, Meta: tc.meta})
			require.NoError(t, err)
			text := res.Content[0].(*sdkmcp.TextContent).Text
			var out tool.Output
			require.NoError(t, json.Unmarshal([]byte(text), &out))
			if tc.wantCode == "" {
				require.True(t, out.Success, "%+v", out.Error)
				return
			}
			require.NotNil(t, out.Error)
			assert.Equal(t, tc.wantCode, out.Error.Code)
			assert.Contains(t, out.Error.Message, tc.wantMsg)
		})
	}
	// What reached the kernel: the asked timeout, unclamped here (the kernel clamps).
	var timeouts []time.Duration
	for _, r := range rec.all() {
		timeouts = append(timeouts, r.Timeout)
	}
	assert.Equal(t, []time.Duration{0, 10 * time.Second, 50 * time.Millisecond, 15 * time.Minute}, timeouts,
		"the malformed ones never reach the kernel")
}

func TestProgressWhileACallRuns(t *testing.T) {
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	var mu sync.Mutex
	var got []*sdkmcp.ProgressNotificationParams
	copts := &sdkmcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *sdkmcp.ProgressNotificationClientRequest) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, req.Params)
	}}
	cs := connectInMemoryWith(t, k, copts, mcp.Config{ProgressInterval: 20 * time.Millisecond})
	ctx := context.Background()

	params := &sdkmcp.CallToolParams{Name: "fx_sleep", Arguments: map[string]any{"ms": 300},
		Meta: sdkmcp.Meta{mcp.TimeoutMetaKey: 10_000}}
	params.SetProgressToken("tok-1")
	res, err := cs.CallTool(ctx, params)
	require.NoError(t, err)
	require.False(t, res.IsError)
	// No token, no progress. (The client handles notifications on its own goroutine,
	// so the first call's are checked after this one: its handlers have run by then.)
	_, err = cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_sleep", Arguments: map[string]any{"ms": 100}})
	require.NoError(t, err)

	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, got, "a 300 ms call reporting every 20 ms sends progress")
	seen := map[float64]bool{}
	for _, p := range got {
		assert.Equal(t, "tok-1", p.ProgressToken, "progress only for the call that asked")
		assert.False(t, seen[p.Progress], "each report has its own elapsed time")
		seen[p.Progress] = true
		assert.Positive(t, p.Progress)
		assert.Contains(t, p.Message, "fx:sleep still running after")
	}
}

func TestLargeResultsAreTruncatedWithAMarker(t *testing.T) {
	const limit = 64 << 10
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	cs := connectInMemoryWith(t, k, nil, mcp.Config{MaxResultBytes: limit})
	ctx := context.Background()

	res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_big", Arguments: map[string]any{"bytes": 1000}})
	require.NoError(t, err)
	out := mcptest.DecodeResult(t, res)
	require.True(t, out.Success)
	assert.Nil(t, out.Metadata["truncated"])

	res, err = cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "fx_big", Arguments: map[string]any{"bytes": 3 << 20}})
	require.NoError(t, err)
	out = mcptest.DecodeResult(t, res)
	assert.True(t, out.Success, "the call succeeded; only its data was left out")
	assert.Nil(t, out.Data)
	assert.Equal(t, true, out.Metadata["truncated"])
	receipt := res.Meta[mcp.ReceiptMetaKey].(string)
	assert.Equal(t, receipt, out.Metadata["receipt_id"])
	assert.Contains(t, out.Metadata["truncated_note"], receipt)
	assert.Contains(t, out.Metadata["truncated_note"], "limit")
	assert.Greater(t, out.Metadata["result_bytes"], float64(6<<20), "the text and structured copies together")
	msg, err := json.Marshal(res)
	require.NoError(t, err)
	assert.Less(t, len(msg), limit, "the result sent is under the cap")
}

func TestServerRefusesANonObjectSchema(t *testing.T) {
	r := native.NewRegistry()
	require.NoError(t, r.Add(native.Raw(tool.Spec{Name: "fx:scalar", Description: "takes a string",
		InputSchema: &jsonschema.Schema{Type: "string"}},
		func(ctx context.Context, env *tool.Env, input json.RawMessage) tool.Output { return tool.OK(nil) })))
	k, err := assemble.Kernel(assemble.Config{Config: kernel.Config{Workspace: t.TempDir(), Evidence: kernel.EvidenceConfig{Sync: evidence.SyncBuffered}}, Native: r})
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })

	_, err = mcp.NewServer(k, testCaller, mcp.Config{})
	assert.ErrorContains(t, err, "fx:scalar: input schema is not an object schema")
	_, err = mcp.HTTPHandler(k, testCaller, mcp.Config{})
	assert.ErrorContains(t, err, "fx:scalar")
	// ServeStdio fails before it touches any descriptor.
	err = mcp.ServeStdio(context.Background(), k, testCaller, os.Stdin, os.Stdout, mcp.Config{})
	assert.ErrorContains(t, err, "fx:scalar")
}

// assertNoBooleanSubschemas fails when a schema position in raw holds true or false,
// additionalProperties: false excepted.
func assertNoBooleanSubschemas(t *testing.T, what string, raw []byte) {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(raw, &v), what)
	var walk func(path string, x any)
	walk = func(path string, x any) {
		switch n := x.(type) {
		case bool:
			if !(n == false && strings.HasSuffix(path, "/additionalProperties")) {
				t.Errorf("%s: boolean sub-schema at %s", what, path)
			}
		case map[string]any:
			for k, sub := range n {
				switch k {
				case "properties", "$defs", "patternProperties":
					if m, ok := sub.(map[string]any); ok {
						for name, s := range m {
							walk(path+"/"+k+"/"+name, s)
						}
					}
				case "additionalProperties", "items", "not", "if", "then", "else", "contains":
					walk(path+"/"+k, sub)
				case "anyOf", "allOf", "oneOf", "prefixItems":
					if l, ok := sub.([]any); ok {
						for i, s := range l {
							walk(fmt.Sprintf("%s/%s/%d", path, k, i), s)
						}
					}
				}
			}
		}
	}
	walk("", v)
}
