package mcp_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/surface/mcp/mcptest"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// lockIn is fx:lock's input: list the locks, or clear one with a reason.
type lockIn struct {
	Lane   string `json:"lane,omitempty" jsonschema:"the lane whose lock to clear"`
	Reason string `json:"reason,omitempty" jsonschema:"why the lock is cleared"`
	List   bool   `json:"list,omitempty" jsonschema:"list every lock"`
}

// AdjustSchema adds the rules between properties a struct tag cannot carry.
func (lockIn) AdjustSchema(s *jsonschema.Schema) {
	if err := tool.ApplyConstraints(s,
		tool.Constraint{Kind: tool.Exclusive, Properties: []string{"list", "lane"}},
		tool.Constraint{Kind: tool.AnyOf, Properties: []string{"list", "lane"}},
		tool.Constraint{Kind: tool.Requires, Properties: []string{"lane", "reason"}}); err != nil {
		panic(err)
	}
}

// newRulesKernel is the fixture kernel with one more tool, fx:lock, whose input has
// rules between its properties.
func newRulesKernel(t *testing.T) *kernel.Kernel {
	t.Helper()
	reg := fixtureNative(t)
	require.NoError(t, reg.Add(native.New(tool.Spec{Name: "fx:lock", Description: "List the lane locks, or clear one with a reason.",
		Annotations: tool.Annotations{ReadOnlyHint: true}},
		func(ctx context.Context, env *tool.Env, in lockIn) tool.Output {
			return tool.OK(map[string]any{"locks": []string{}})
		})))
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace:  t.TempDir(),
			Governance: kernel.Governance{Disabled: []string{"fx:off"}, Excluded: []string{"fx:hidden"}},
			Evidence:   kernel.EvidenceConfig{Sync: evidence.SyncBuffered},
		},
		Commands: fixtureCommands(t),
		Native:   reg,
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = k.Close() })
	return k
}

// TestOnDemandRoundTrips: with Config.OnDemand tools/list is three tools; a host reaches
// any tool in three round trips (search, describe, call) where the full list takes
// one, the description states the rules between properties, and the call goes through
// the kernel as any other, which enforces them.
func TestOnDemandRoundTrips(t *testing.T) {
	cs := connectInMemoryWith(t, newRulesKernel(t), nil, mcp.Config{OnDemand: true})
	ctx := context.Background()
	res, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	assert.ElementsMatch(t, []string{mcp.SearchToolName, mcp.DescribeToolName, mcp.CallToolName}, names)
	b, err := json.Marshal(res)
	require.NoError(t, err)
	assert.Less(t, len(b)/4, 1000, "the three tools cost under 1,000 tokens")

	call := func(name string, args map[string]any) tool.Output {
		r, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: name, Arguments: args})
		require.NoError(t, err)
		var out tool.Output
		require.NoError(t, json.Unmarshal([]byte(r.Content[0].(*sdkmcp.TextContent).Text), &out))
		return out
	}
	found := call(mcp.SearchToolName, map[string]any{"query": "lane lock"})
	require.True(t, found.Success)
	assert.Contains(t, mustJSON(t, found.Data), "fx_lock")
	assert.NotContains(t, mustJSON(t, found.Data), "fx_echo", "every word of the query must match")
	desc := call(mcp.DescribeToolName, map[string]any{"name": "fx_lock"})
	require.True(t, desc.Success)
	assert.Contains(t, mustJSON(t, desc.Data), "Rules: ")
	ok := call(mcp.CallToolName, map[string]any{"name": "fx_lock", "arguments": map[string]any{"list": true}})
	assert.True(t, ok.Success, "%+v", ok.Error)
	out := call(mcp.CallToolName, map[string]any{"name": "fx_lock", "arguments": map[string]any{"list": true, "lane": "a"}})
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeInvalidInput, out.Error.Code)
	assert.Contains(t, out.Error.Message, "list and lane cannot be given together")
	all := call(mcp.SearchToolName, nil)
	require.True(t, all.Success)
	assert.Contains(t, mustJSON(t, all.Data), "fx_echo", "a search without words finds every tool")
	assert.NotContains(t, mustJSON(t, all.Data), "fx_hidden", "nor one the kernel does not serve")

	// Arguments of the wrong shape are refused as such, not read as an empty query
	// (every tool) or an empty name, nor, passed on, as a rule broken.
	for _, tc := range []struct {
		name string
		args map[string]any
		says string
	}{
		{mcp.SearchToolName, map[string]any{"query": 7}, mcp.SearchToolName + ": the arguments do not match"},
		{mcp.DescribeToolName, map[string]any{"name": []any{"fx_lock"}}, mcp.DescribeToolName + ": the arguments do not match"},
		{mcp.CallToolName, map[string]any{"name": "fx_lock", "arguments": "list=true"}, "fx:lock: invalid input at /: the input is a JSON string"},
	} {
		out := call(tc.name, tc.args)
		require.NotNil(t, out.Error, "%s %v", tc.name, tc.args)
		assert.Equal(t, tool.CodeInvalidInput, out.Error.Code, "%s %v", tc.name, tc.args)
		assert.Contains(t, out.Error.Message, tc.says)
	}
}

// TestRulesStillEnforced: what tools/list sends in the portable dialect has no rules
// between properties (they are said in words), and the kernel still refuses an input
// that breaks one, naming the properties.
func TestRulesStillEnforced(t *testing.T) {
	k := newRulesKernel(t)
	var lock *sdkmcp.Tool
	for _, tl := range listed(t, k, tool.DialectPortable) {
		if tl.Name == "fx_lock" {
			lock = tl
		}
	}
	require.NotNil(t, lock)
	assert.NotContains(t, mcptest.SchemaOf(t, lock), "not", "the rules are not in the schema sent")
	assert.Contains(t, lock.Description, "Rules: ")
	assert.Contains(t, lock.Description, "exactly one of list, lane is required")

	cs := connectInMemory(t, k)
	call, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{
		Name: "fx_lock", Arguments: map[string]any{"lane": "a"},
	})
	require.NoError(t, err)
	out := mcptest.DecodeResult(t, call)
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeInvalidInput, out.Error.Code)
	assert.Contains(t, out.Error.Message, "reason")
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
