package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/tool"
)

// ReceiptMetaKey is the _meta key of a tools/call result that holds the evidence
// receipt id of the call (the kernel's call id).
const ReceiptMetaKey = "cmdbridge/receipt_id"

// RunsCodeMetaKey is the _meta key, true on a tool in tools/list, of a tool that runs
// workspace code (tool.Annotations RunsCodeHint), which MCP annotations cannot say.
const RunsCodeMetaKey = "cmdbridge/runs_workspace_code"

// WarningsMetaKey is the _meta key, on a tool in tools/list, of the warnings of its
// derivation (tool.Spec.Warnings: docs/schemas.md), the ones `tools list` and `status`
// show.
const WarningsMetaKey = "cmdbridge/warnings"

// TimeoutMetaKey is the _meta key of a tools/call request asking for the call's
// deadline in milliseconds (a positive number). The kernel clamps it to the tool's
// maximum; without it the tool's default applies.
const TimeoutMetaKey = "cmdbridge/timeout_ms"

// Defaults of the options below.
const (
	// DefaultMaxResultBytes caps one serialised tools/call result.
	DefaultMaxResultBytes = 1 << 20
	// DefaultProgressInterval is how often a call carrying a progress token reports.
	DefaultProgressInterval = 5 * time.Second
	// DefaultSessionIdle is how long an idle streamable HTTP session lives.
	DefaultSessionIdle = 30 * time.Minute
	// DefaultMaxConcurrentCalls bounds the tools/call requests one server runs at once.
	DefaultMaxConcurrentCalls = 64
)

// Config configures a server and its transports; the zero Config serves with the
// defaults each field names.
type Config struct {
	// Name and Version are what the server reports in initialize (default
	// "cmdbridge", "dev").
	Name, Version string
	// Instructions are sent to clients in initialize.
	Instructions string
	// Logger receives the SDK's log of server activity (default: no logging).
	Logger *slog.Logger
	// SchemaDialect is the form in which tools/list sends input schemas (default
	// tool.DialectPortable, which every major model API accepts as sent;
	// docs/schemas.md). The kernel validates every call against the full schema
	// whatever the dialect.
	SchemaDialect tool.Dialect
	// OnDemand lists tools_search, tool_describe and tool_call instead of the registry
	// (ondemand.go).
	OnDemand bool
	// Sees, when set, serves only the tools it admits, by canonical name (a token's
	// tools): the others are not listed, and in on-demand mode not found, described
	// or called either. Nil serves every tool of the kernel's view.
	Sees func(name string) bool
	// MaxConcurrentCalls bounds the tools/call requests the server runs at once, over
	// all its sessions (<= 0: [DefaultMaxConcurrentCalls]); a call past it waits for
	// a slot, or for its cancellation. A client cannot start more programs at once
	// than this, however fast it sends.
	MaxConcurrentCalls int
	// MaxResultBytes caps the serialised size of a tools/call result (text and
	// structured content together; <= 0: [DefaultMaxResultBytes]). A larger result is
	// replaced by one without data whose metadata says it was truncated.
	MaxResultBytes int
	// ProgressInterval is how often a tools/call that carries a progress token gets a
	// notifications/progress while it runs (<= 0: [DefaultProgressInterval]).
	ProgressInterval time.Duration
	// SessionIdle is how long a streamable HTTP session may go without a request
	// before it is closed (<= 0: [DefaultSessionIdle]); a request naming a closed
	// session is answered 404. Only the HTTP handlers use it.
	SessionIdle time.Duration
	// MaxBodyBytes bounds a streamable HTTP request body (<= 0:
	// [DefaultMaxBodyBytes]); a larger one is answered 413 before anything is decoded.
	// Only the HTTP handlers use it.
	MaxBodyBytes int64
	// AllowedOrigins are the browser origins (such as "https://ui.example.com"; "*" for
	// any) whose requests the streamable HTTP handlers serve besides the server's own:
	// a request with any other Origin header is answered 403 (surface/origin). Only the
	// HTTP handlers use it.
	AllowedOrigins []string
	// EventStore keeps the streamable HTTP handlers' server-sent events, so a client
	// can resume a stream with Last-Event-ID (nil: a store of the handler's own,
	// [DefaultEventStoreBytes]). Handlers may share one; session ids keep their events
	// apart. Only the HTTP handlers use it.
	EventStore sdkmcp.EventStore
}

// options is a Config with its defaults filled in.
type options struct {
	name, version  string
	instructions   string
	logger         *slog.Logger
	maxResultBytes int
	progressEvery  time.Duration
	sessionIdle    time.Duration
	maxBody        int64
	origins        []string
	eventStore     sdkmcp.EventStore
	dialect        tool.Dialect
	onDemand       bool
	sees           func(string) bool
	maxCalls       int
}

// StrictMetaKey is the _meta key, true on a tool in tools/list, of a tool whose input
// schema is OpenAI's strict form of its full schema (tool.DialectOpenAIStrict): a host
// may send it with "strict": true.
const StrictMetaKey = "cmdbridge/openai_strict"

// DefaultEventStoreBytes bounds the events a handler keeps for resumption when
// [Config.EventStore] gives none; the oldest are dropped first (a resume needing them is
// refused, and the client starts over).
const DefaultEventStoreBytes = 4 << 20

// NewEventStore returns a memory event store holding at most maxBytes of events, for
// [Config.EventStore].
func NewEventStore(maxBytes int) sdkmcp.EventStore {
	s := sdkmcp.NewMemoryEventStore(nil)
	s.SetMaxBytes(maxBytes)
	return s
}

// DefaultMaxBodyBytes bounds a streamable HTTP request body by default: the SDK's own
// default.
const DefaultMaxBodyBytes = sdkmcp.DefaultMaxRequestBodyBytes

func (c Config) options() options {
	o := options{
		name: c.Name, version: c.Version, instructions: c.Instructions, logger: c.Logger,
		maxResultBytes: c.MaxResultBytes, progressEvery: c.ProgressInterval, sessionIdle: c.SessionIdle,
		maxBody: c.MaxBodyBytes, origins: c.AllowedOrigins, eventStore: c.EventStore,
		dialect: c.SchemaDialect, onDemand: c.OnDemand, sees: c.Sees, maxCalls: c.MaxConcurrentCalls,
	}
	if o.maxCalls <= 0 {
		o.maxCalls = DefaultMaxConcurrentCalls
	}
	if o.name == "" {
		o.name = "cmdbridge"
	}
	if o.version == "" {
		o.version = "dev"
	}
	if o.maxResultBytes <= 0 {
		o.maxResultBytes = DefaultMaxResultBytes
	}
	if o.progressEvery <= 0 {
		o.progressEvery = DefaultProgressInterval
	}
	if o.sessionIdle <= 0 {
		o.sessionIdle = DefaultSessionIdle
	}
	if o.maxBody <= 0 {
		o.maxBody = DefaultMaxBodyBytes
	}
	if o.dialect == "" {
		o.dialect = tool.DialectPortable
	}
	return o
}

// NewServer returns an SDK server exposing every tool of k. Calls run non-interactively
// as caller. It fails when a tool's input schema is not an object schema or two tools
// share an MCP name.
func NewServer(k *kernel.Kernel, caller kernel.Caller, cfg Config) (*sdkmcp.Server, error) {
	s, _, err := newServer(k, caller, cfg.options())
	return s, err
}

// newServer also returns the gate of in-flight calls: ServeStdio closes it, which waits
// for the calls running and refuses later ones, before it restores the descriptors.
func newServer(k *kernel.Kernel, caller kernel.Caller, o options) (*sdkmcp.Server, *callGate, error) {
	specs := k.Tools()
	if o.sees != nil {
		var seen []tool.Spec
		for _, spec := range specs {
			if o.sees(spec.Name) {
				seen = append(seen, spec)
			}
		}
		specs = seen
	}
	tools, err := mcpTools(specs, o.dialect)
	if err != nil {
		return nil, nil, err
	}
	srv := sdkmcp.NewServer(&sdkmcp.Implementation{Name: o.name, Version: o.version}, &sdkmcp.ServerOptions{
		Instructions: o.instructions,
		Logger:       o.logger,
		// Only tools: no logging capability (the SDK's historical default), since
		// nothing here sends log notifications; and tools without listChanged (the
		// SDK's default when tools exist), since a server's tool list is fixed when
		// it is built and no tools/list_changed notification is ever sent.
		Capabilities: &sdkmcp.ServerCapabilities{Tools: &sdkmcp.ToolCapabilities{}},
	})
	inflight := &callGate{slots: make(chan struct{}, o.maxCalls)}
	if o.onDemand {
		onDemandTools(srv, k, caller, tools, inflight, o) // ondemand.go
		return srv, inflight, nil
	}
	for _, t := range tools {
		srv.AddTool(t.tool, callHandler(k, caller, t, inflight, o))
	}
	return srv, inflight, nil
}

// mcpTool is one tool as the protocol lists it, with the canonical name it calls.
type mcpTool struct {
	tool      *sdkmcp.Tool
	canonical string
	// strict: the listed schema is OpenAI's strict form, whose nulls mean "not given".
	strict bool
}

// mcpTools converts the kernel's specs, refusing what the SDK would panic on. Input
// schemas and descriptions are sent in dialect d (tool.Wire); the kernel keeps the
// full schema for validation.
func mcpTools(specs []tool.Spec, d tool.Dialect) ([]mcpTool, error) {
	out := make([]mcpTool, 0, len(specs))
	seen := make(map[string]string, len(specs))
	for _, spec := range specs {
		name := tool.MCPName(spec.Name)
		if prev, dup := seen[name]; dup {
			return nil, fmt.Errorf("mcp: tools %q and %q share the MCP name %q", prev, spec.Name, name)
		}
		seen[name] = spec.Name
		if spec.InputSchema == nil || spec.InputSchema.Type != "object" {
			return nil, fmt.Errorf("mcp: tool %s: input schema is not an object schema", spec.Name)
		}
		w, err := tool.Wire(spec, d)
		if err != nil {
			return nil, fmt.Errorf("mcp: tool %s: input schema: %w", spec.Name, err)
		}
		// Marshalled once here rather than on every tools/list, with every boolean
		// sub-schema spelled as an object (wireSchema), which is all MCP clients accept.
		in, err := wireSchema(w.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("mcp: tool %s: input schema: %w", spec.Name, err)
		}
		t := &sdkmcp.Tool{
			Name:        name,
			Title:       spec.Annotations.Title,
			Description: w.Description,
			InputSchema: json.RawMessage(in),
			Annotations: annotations(spec),
		}
		// The envelope every result has is the same for every tool and says nothing
		// about data: an output schema is sent only for a tool that declares its data.
		if spec.OutputSchema != nil {
			outSchema, err := wireSchema(outputSchema(spec.OutputSchema))
			if err != nil {
				return nil, fmt.Errorf("mcp: tool %s: output schema: %w", spec.Name, err)
			}
			t.OutputSchema = json.RawMessage(outSchema)
		}
		if spec.Annotations.RunsCodeHint || w.Strict || len(spec.Warnings) > 0 {
			t.Meta = sdkmcp.Meta{}
		}
		if len(spec.Warnings) > 0 {
			// What the schema could not map as written (a fallback such as an
			// undeclared positionals list), as tools list and status show it.
			t.Meta[WarningsMetaKey] = spec.Warnings
		}
		if spec.Annotations.RunsCodeHint {
			// MCP has no annotation for it; a host that reads _meta can warn.
			t.Meta[RunsCodeMetaKey] = true
		}
		if w.Strict {
			t.Meta[StrictMetaKey] = true
		}
		out = append(out, mcpTool{canonical: spec.Name, tool: t, strict: w.Strict})
	}
	return out, nil
}

// annotations states every hint that means something and is not the protocol's
// default: destructiveHint and openWorldHint default to true when absent, which would
// misdescribe most tools, so false is always sent; destructiveHint means something only
// for a tool that is not read-only, so a read-only tool does not send it. The title is
// sent only when declared: the name says the rest.
func annotations(spec tool.Spec) *sdkmcp.ToolAnnotations {
	a := spec.Annotations
	openWorld := a.OpenWorldHint
	out := &sdkmcp.ToolAnnotations{
		Title:          a.Title,
		ReadOnlyHint:   a.ReadOnlyHint,
		IdempotentHint: a.IdempotentHint,
		OpenWorldHint:  &openWorld,
	}
	if !a.ReadOnlyHint {
		destructive := a.DestructiveHint
		out.DestructiveHint = &destructive
	}
	return out
}

// outputSchema describes the structured content of every result: the tool.Output
// envelope, with the tool's own data schema when it declares one. data may always be
// null: a failure, or a result truncated to the size cap, carries none.
func outputSchema(declared *jsonschema.Schema) *jsonschema.Schema {
	data := &jsonschema.Schema{}
	if declared != nil {
		data = &jsonschema.Schema{AnyOf: []*jsonschema.Schema{declared, {Type: "null"}}}
	}
	return &jsonschema.Schema{
		Type:     "object",
		Required: []string{"success", "data", "error"},
		Properties: map[string]*jsonschema.Schema{
			"success": {Type: "boolean"},
			"data":    data,
			"error": {
				Types:    []string{"object", "null"},
				Required: []string{"code", "message"},
				Properties: map[string]*jsonschema.Schema{
					"code":    {Type: "string", Description: "UPPER_SNAKE code from cmdbridge's closed set"},
					"message": {Type: "string"},
					"details": {},
				},
			},
			"metadata": {Type: "object"},
		},
	}
}

// callHandler runs one tools/call through the kernel. It never returns a protocol
// error: whatever the kernel answers is a result.
func callHandler(k *kernel.Kernel, caller kernel.Caller, t mcpTool, inflight *callGate, o options) sdkmcp.ToolHandler {
	canonical := t.canonical
	return func(ctx context.Context, req *sdkmcp.CallToolRequest) (*sdkmcp.CallToolResult, error) {
		if inflight.mu.TryRLock() {
			defer inflight.mu.RUnlock()
			select {
			case inflight.slots <- struct{}{}:
				defer func() { <-inflight.slots }()
			case <-ctx.Done():
				// Cancelled while waiting for a slot: the kernel records it CANCELLED
				// and dispatches nothing.
			}
		} else {
			// The server is stopping: the kernel records the call as CANCELLED and
			// dispatches nothing, so nothing runs while the descriptors are restored.
			stopped, cancel := context.WithCancel(ctx)
			cancel()
			ctx = stopped
		}
		input := req.Params.Arguments
		if trimmed := bytes.TrimSpace(input); len(trimmed) == 0 || string(trimmed) == "null" {
			// Arguments are optional in the protocol; the kernel's input is an object.
			input = json.RawMessage(`{}`)
		} else if t.strict {
			input = tool.DropNulls(input)
		}
		timeout, bad := requestedTimeout(req.Params.Meta)
		if bad != nil {
			return toResult(kernel.Result{Output: bad.Output()}, o.maxResultBytes), nil
		}
		stdin, bad := requestedStdin(req.Params.Meta) // stdin.go
		if bad != nil {
			return toResult(kernel.Result{Output: bad.Output()}, o.maxResultBytes), nil
		}
		if token := req.Params.GetProgressToken(); token != nil && req.Session != nil {
			stop := reportProgress(ctx, req.Session, token, canonical, o.progressEvery)
			// Stopped before the result is returned: no progress follows the response.
			defer stop()
		}
		kreq := kernel.Request{Tool: canonical, Input: input, Caller: caller, Interactive: false, Timeout: timeout, Stdin: stdin}
		approval := askClient(req, &kreq) // elicit.go: interactive only when the client can elicit
		res := k.Call(ctx, kreq)
		if ask := approval.inputRequired(res); ask != nil {
			return ask, nil
		}
		return toResult(res, o.maxResultBytes), nil
	}
}

// requestedTimeout reads TimeoutMetaKey; a value that is not a positive number is
// refused (INVALID_INPUT) before the kernel.
func requestedTimeout(meta sdkmcp.Meta) (time.Duration, *tool.Error) {
	v, ok := meta[TimeoutMetaKey]
	if !ok || v == nil {
		return 0, nil
	}
	var ms float64
	switch n := v.(type) {
	case float64:
		ms = n
	case int:
		ms = float64(n)
	case int64:
		ms = float64(n)
	case json.Number:
		f, err := n.Float64()
		if err != nil {
			ms = -1
		} else {
			ms = f
		}
	default:
		ms = -1
	}
	if !(ms > 0) {
		return 0, tool.Refuse(tool.CodeInvalidInput, "_meta[%q] must be a positive number of milliseconds, got %v", TimeoutMetaKey, v)
	}
	// The kernel clamps to the tool's maximum; this only keeps the conversion finite.
	return time.Duration(min(ms, float64(tool.MaxTimeout.Milliseconds())) * float64(time.Millisecond)), nil
}

// reportProgress sends notifications/progress every interval until stop is called;
// progress is the seconds elapsed. stop waits for the sender to finish.
func reportProgress(ctx context.Context, ss *sdkmcp.ServerSession, token any, name string, every time.Duration) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case now := <-tick.C:
				elapsed := now.Sub(start).Truncate(time.Second)
				_ = ss.NotifyProgress(ctx, &sdkmcp.ProgressNotificationParams{
					ProgressToken: token,
					Progress:      now.Sub(start).Seconds(),
					Message:       fmt.Sprintf("%s still running after %s", name, elapsed),
				})
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// toResult serialises the Output once and uses the bytes for both content forms. A
// result over limit bytes is replaced by a truncated one (see truncated).
func toResult(res kernel.Result, limit int) *sdkmcp.CallToolResult {
	out := res.Output
	body, err := json.Marshal(out)
	if err != nil {
		// Data a native tool returned that JSON cannot hold: still a tool failure,
		// never a protocol error.
		out = tool.Fail(tool.CodeInternal, "%s: output is not JSON: %v", res.Receipt.Tool, err)
		body, _ = json.Marshal(out)
	}
	if size := resultSize(body); size > limit {
		out = truncated(out, res.Receipt, size, limit)
		body, _ = json.Marshal(out)
	}
	r := &sdkmcp.CallToolResult{
		Content:           []sdkmcp.Content{&sdkmcp.TextContent{Text: string(body)}},
		StructuredContent: json.RawMessage(body),
		IsError:           !out.Success,
	}
	if res.Receipt.ID != "" {
		r.Meta = sdkmcp.Meta{ReceiptMetaKey: res.Receipt.ID}
	}
	return r
}

// resultSize is the size of the result message carrying body: once as structured
// content, once as a JSON string (quotes and backslashes escaped, <, > and & as
// \u00XX), plus the envelope.
func resultSize(body []byte) int {
	escapes := bytes.Count(body, []byte{'"'}) + bytes.Count(body, []byte{'\\'})
	html := bytes.Count(body, []byte{'<'}) + bytes.Count(body, []byte{'>'}) + bytes.Count(body, []byte{'&'})
	return 2*len(body) + escapes + 5*html + 256
}

// truncated replaces an Output too large to send: same success and error code, no
// data or error details, and metadata saying what was dropped and where the call is
// recorded.
func truncated(out tool.Output, rec evidence.Receipt, size, limit int) tool.Output {
	meta := map[string]any{
		"truncated":      true,
		"result_bytes":   size,
		"limit_bytes":    limit,
		"receipt_id":     rec.ID,
		"output_sha256":  rec.OutputHash,
		"truncated_note": fmt.Sprintf("The result of %s was %d bytes, over this server's %d-byte limit, so its data was left out. The call did run: its evidence receipt is %s (output hash %s). Ask for less (a narrower path, range or filter) to see the data.", rec.Tool, size, limit, rec.ID, rec.OutputHash),
	}
	for _, key := range []string{"lane", "exit_code", "duration_ms"} {
		if v, ok := out.Metadata[key]; ok {
			meta[key] = v
		}
	}
	t := tool.Output{Success: out.Success, Metadata: meta}
	if out.Error != nil {
		msg := out.Error.Message
		if len(msg) > 2048 {
			msg = msg[:2048] + "…"
		}
		t.Error = &tool.Error{Code: out.Error.Code, Message: msg}
	}
	return t
}

// callGate tracks the calls in flight: each holds a read lock; close takes the write
// lock, so it waits for them, and a call arriving afterwards is refused. A running
// call also holds one of slots (Config.MaxConcurrentCalls).
type callGate struct {
	mu    sync.RWMutex
	slots chan struct{}
}

func (g *callGate) close() { g.mu.Lock() }
