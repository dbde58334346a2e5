package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/tool"
)

// The on-demand mode (Config.OnDemand) makes tools/list show three tools instead of
// every tool: tools_search finds tools by words of their names and descriptions,
// tool_describe gives one tool's description, input schema and annotations (as
// tools/list would), and tool_call calls one by name. For a registry too large to list
// on every turn; calling a tool then takes a search and a describe before the call
// (docs/mcp.md, "On demand"). Every call goes through the kernel as before: the view,
// governance, scopes and validation apply.

// Names of the on-demand tools.
const (
	SearchToolName   = "tools_search"
	DescribeToolName = "tool_describe"
	CallToolName     = "tool_call"
)

// onDemandTools registers the three on-demand tools on srv, over tools.
func onDemandTools(srv *sdkmcp.Server, k *kernel.Kernel, caller kernel.Caller, tools []mcpTool, inflight *callGate, o options) {
	byName := map[string]mcpTool{}
	for _, t := range tools {
		byName[t.tool.Name] = t
		byName[t.canonical] = t
	}
	closed, yes := false, true
	// tools_search and tool_describe only read the list; tool_call is the worst case of
	// the tools it reaches.
	readOnly := &sdkmcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &closed}
	worst := &sdkmcp.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: &yes}
	srv.AddTool(&sdkmcp.Tool{
		Name:        SearchToolName,
		Description: "Find tools by words of their names and descriptions; without words, list them all. Returns each tool's name and description; describe one with tool_describe, call it with tool_call.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"words every tool found has in its name or description (none: every tool)"}}}`),
		Annotations: readOnly,
	}, func(ctx context.Context, req *sdkmcp.CallToolRequest) (*sdkmcp.CallToolResult, error) {
		var in struct {
			Query string `json:"query"`
		}
		if bad := onDemandInput(req, &in, o, "query"); bad != nil {
			return bad, nil
		}
		words := strings.Fields(strings.ToLower(in.Query))
		type found struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		}
		list := []found{}
		for _, t := range tools {
			hay := strings.ToLower(t.tool.Name + " " + t.canonical + " " + t.tool.Description)
			all := true
			for _, w := range words {
				if !strings.Contains(hay, w) {
					all = false
					break
				}
			}
			if all {
				list = append(list, found{t.tool.Name, t.tool.Description})
			}
		}
		return toResult(kernel.Result{Output: tool.OK(map[string]any{"tools": list})}, o.maxResultBytes), nil
	})
	srv.AddTool(&sdkmcp.Tool{
		Name:        DescribeToolName,
		Description: "Describe one tool found by tools_search: its description, input schema and annotations, as a tool list would give them.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"the tool's name"}},"required":["name"]}`),
		Annotations: readOnly,
	}, func(ctx context.Context, req *sdkmcp.CallToolRequest) (*sdkmcp.CallToolResult, error) {
		var in struct {
			Name string `json:"name"`
		}
		if bad := onDemandInput(req, &in, o, "name"); bad != nil {
			return bad, nil
		}
		t, ok := byName[in.Name]
		if !ok {
			return toResult(kernel.Result{Output: tool.Fail(tool.CodeToolNotFound, "no tool %q; find one with %s", in.Name, SearchToolName)}, o.maxResultBytes), nil
		}
		return toResult(kernel.Result{Output: tool.OK(t.tool)}, o.maxResultBytes), nil
	})
	srv.AddTool(&sdkmcp.Tool{
		Name:        CallToolName,
		Description: "Call one tool by name with its input (the input schema tool_describe gives).",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","description":"the tool's name"},"arguments":{"type":"object","description":"the tool's input"}},"required":["name"]}`),
		Annotations: worst,
	}, func(ctx context.Context, req *sdkmcp.CallToolRequest) (*sdkmcp.CallToolResult, error) {
		var in struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if bad := onDemandInput(req, &in, o, "name", "arguments"); bad != nil {
			return bad, nil
		}
		t, ok := byName[in.Name]
		if !ok {
			return toResult(kernel.Result{Output: tool.Fail(tool.CodeToolNotFound, "no tool %q; find one with %s", in.Name, SearchToolName)}, o.maxResultBytes), nil
		}
		params := *req.Params
		params.Name, params.Arguments = t.tool.Name, in.Arguments
		inner := *req
		inner.Params = &params
		return callHandler(k, caller, t, inflight, o)(ctx, &inner)
	})
}

// onDemandInput decodes the arguments of a call of an on-demand tool into in. Arguments
// of the wrong shape are the caller's INVALID_INPUT, not an empty query or name. So is a
// property that is not exactly one of props: encoding/json would match "Name" (or
// "nam\u212Ae"-like Unicode folds) to name, so {"name":"fx_echo","Name":"fx_wipe"}
// would call the tool that a host, a proxy or an approval screen, reading the
// arguments case-sensitively as JSON does, never saw.
func onDemandInput(req *sdkmcp.CallToolRequest, in any, o options, props ...string) *sdkmcp.CallToolResult {
	raw := bytes.TrimSpace(req.Params.Arguments)
	if len(raw) == 0 {
		return nil
	}
	var obj map[string]json.RawMessage
	err := json.Unmarshal(raw, &obj)
	if err == nil {
		var unknown []string
		for key := range obj {
			if !slices.Contains(props, key) {
				unknown = append(unknown, strconv.Quote(key))
			}
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			err = fmt.Errorf("unknown properties %s (its properties are %s)", strings.Join(unknown, ", "), strings.Join(props, ", "))
		}
	}
	if err == nil {
		err = json.Unmarshal(raw, in)
	}
	if err != nil {
		return toResult(kernel.Result{Output: tool.Fail(tool.CodeInvalidInput,
			"%s: the arguments do not match its input schema: %v", req.Params.Name, err)}, o.maxResultBytes)
	}
	return nil
}
