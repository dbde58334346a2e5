package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/tool"
)

// ReceiptMetaKey is the _meta key of a tools/call result that holds the evidence
// receipt id of the call (the kernel's call id).
const ReceiptMetaKey = "cmdbridge/receipt_id"

// Option configures a server.
type Option func(*options)

type options struct {
	name, version string
	instructions  string
	logger        *slog.Logger
}

// WithImplementation sets the name and version the server reports in initialize
// (default "cmdbridge", "dev").
func WithImplementation(name, version string) Option {
	return func(o *options) { o.name, o.version = name, version }
}

// WithInstructions sets the instructions sent to clients in initialize.
func WithInstructions(text string) Option {
	return func(o *options) { o.instructions = text }
}

// WithLogger makes the SDK log server activity to l (default: no logging).
func WithLogger(l *slog.Logger) Option {
	return func(o *options) { o.logger = l }
}

func buildOptions(opts []Option) options {
	o := options{name: "cmdbridge", version: "dev"}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// NewServer returns an SDK server exposing every tool of k. Calls run non-interactively
// as caller. It fails when a tool's input schema is not an object schema or two tools
// share an MCP name.
func NewServer(k *kernel.Kernel, caller kernel.Caller, opts ...Option) (*sdkmcp.Server, error) {
	s, _, err := newServer(k, caller, buildOptions(opts))
	return s, err
}

// newServer also returns the gate of in-flight calls: ServeStdio closes it, which waits
// for the calls running and refuses later ones, before it restores the descriptors.
func newServer(k *kernel.Kernel, caller kernel.Caller, o options) (*sdkmcp.Server, *callGate, error) {
	tools, err := mcpTools(k.Tools())
	if err != nil {
		return nil, nil, err
	}
	srv := sdkmcp.NewServer(&sdkmcp.Implementation{Name: o.name, Version: o.version}, &sdkmcp.ServerOptions{
		Instructions: o.instructions,
		Logger:       o.logger,
		// Only tools: no logging capability (the SDK's historical default), since
		// nothing here sends log notifications.
		Capabilities: &sdkmcp.ServerCapabilities{},
	})
	inflight := &callGate{}
	for _, t := range tools {
		srv.AddTool(t.tool, callHandler(k, caller, t.canonical, inflight))
	}
	return srv, inflight, nil
}

// mcpTool is one tool as the protocol lists it, with the canonical name it calls.
type mcpTool struct {
	tool      *sdkmcp.Tool
	canonical string
}

// mcpTools converts the kernel's specs, refusing what the SDK would panic on.
func mcpTools(specs []tool.Spec) ([]mcpTool, error) {
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
		// Marshalled once here rather than on every tools/list: the bytes are the
		// kernel's schema exactly, and listing no longer re-encodes schema trees.
		in, err := json.Marshal(spec.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("mcp: tool %s: input schema: %w", spec.Name, err)
		}
		outSchema, err := json.Marshal(outputSchema(spec.OutputSchema))
		if err != nil {
			return nil, fmt.Errorf("mcp: tool %s: output schema: %w", spec.Name, err)
		}
		out = append(out, mcpTool{canonical: spec.Name, tool: &sdkmcp.Tool{
			Name:         name,
			Title:        title(spec),
			Description:  spec.Description,
			InputSchema:  json.RawMessage(in),
			OutputSchema: json.RawMessage(outSchema),
			Annotations:  annotations(spec),
		}})
	}
	return out, nil
}

// title is the display name: the declared title, else the canonical name, which reads
// better than the MCP spelling (wu:create rather than wu_create).
func title(spec tool.Spec) string {
	if spec.Annotations.Title != "" {
		return spec.Annotations.Title
	}
	return spec.Name
}

// annotations states every hint explicitly: the protocol defaults destructiveHint and
// openWorldHint to true when absent, which would misdescribe most tools.
func annotations(spec tool.Spec) *sdkmcp.ToolAnnotations {
	a := spec.Annotations
	destructive, openWorld := a.DestructiveHint, a.OpenWorldHint
	return &sdkmcp.ToolAnnotations{
		Title:           title(spec),
		ReadOnlyHint:    a.ReadOnlyHint,
		DestructiveHint: &destructive,
		IdempotentHint:  a.IdempotentHint,
		OpenWorldHint:   &openWorld,
	}
}

// outputSchema describes the structured content of every result: the tool.Output
// envelope, with the tool's own data schema when it declares one.
func outputSchema(data *jsonschema.Schema) *jsonschema.Schema {
	if data == nil {
		data = &jsonschema.Schema{}
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
func callHandler(k *kernel.Kernel, caller kernel.Caller, canonical string, inflight *callGate) sdkmcp.ToolHandler {
	return func(ctx context.Context, req *sdkmcp.CallToolRequest) (*sdkmcp.CallToolResult, error) {
		if inflight.mu.TryRLock() {
			defer inflight.mu.RUnlock()
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
		}
		res := k.Call(ctx, kernel.Request{Tool: canonical, Input: input, Caller: caller, Interactive: false})
		return toResult(res), nil
	}
}

// toResult serialises the Output once and uses the bytes for both content forms.
func toResult(res kernel.Result) *sdkmcp.CallToolResult {
	out := res.Output
	body, err := json.Marshal(out)
	if err != nil {
		// Data a native tool returned that JSON cannot hold: still a tool failure,
		// never a protocol error.
		out = tool.Fail(tool.CodeInternal, "%s: output is not JSON: %v", res.Receipt.Tool, err)
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

// callGate tracks the calls in flight: each holds a read lock; close takes the write
// lock, so it waits for them, and a call arriving afterwards is refused.
type callGate struct{ mu sync.RWMutex }

func (g *callGate) close() { g.mu.Lock() }
