package tool_test

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

func wireSpec(t *testing.T) tool.Spec {
	s := &jsonschema.Schema{
		Schema: "https://json-schema.org/draft/2020-12/schema",
		Type:   "object", AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
		Properties: map[string]*jsonschema.Schema{
			"list":   {Type: "boolean", Description: "list every lock"},
			"lane":   {Type: "string", Description: "the lane"},
			"reason": {Type: "string", Description: "why"},
			"level":  {Type: "string", Description: "how loud (low|high)", Enum: []any{"low", "high"}},
		},
	}
	require.NoError(t, tool.ApplyConstraints(s,
		tool.Constraint{Kind: tool.Exclusive, Properties: []string{"list", "lane"}},
		tool.Constraint{Kind: tool.Requires, Properties: []string{"lane", "reason"}}))
	return tool.Spec{Name: "x:unlock", Description: "Clear a lock.", InputSchema: s}
}

func TestWirePortableStatesTheRulesInWords(t *testing.T) {
	spec := wireSpec(t)
	w, err := tool.Wire(spec, tool.DialectPortable)
	require.NoError(t, err)
	assert.Equal(t, "Clear a lock. Rules: list and lane cannot be given together; lane requires reason.", w.Description)
	b, _ := json.Marshal(w.InputSchema)
	assert.JSONEq(t, `{"type":"object","properties":{
		"list":{"type":"boolean","description":"list every lock (see Rules)"},
		"lane":{"type":"string","description":"the lane (see Rules)"},
		"reason":{"type":"string","description":"why (see Rules)"},
		"level":{"type":"string","description":"how loud","enum":["low","high"]}}}`, string(b))
	assert.False(t, w.Strict)
	// The spec's own schema is untouched: the kernel still validates the rules.
	assert.NotNil(t, spec.InputSchema.Not)
	assert.NotNil(t, spec.CheckInput(map[string]any{"list": true, "lane": "a", "reason": "r"}))

	strict, err := tool.Wire(spec, tool.DialectOpenAIStrict)
	require.NoError(t, err)
	assert.False(t, strict.Strict, "rules between properties: not exact in strict form")

	full, err := tool.Wire(spec, tool.DialectFull)
	require.NoError(t, err)
	assert.Equal(t, spec.Description, full.Description)
	assert.Contains(t, full.InputSchema, "not")
	assert.Contains(t, full.InputSchema, "$schema")
}

func TestWireOpenAIStrict(t *testing.T) {
	s := &jsonschema.Schema{Type: "object", Required: []string{"id"}, Properties: map[string]*jsonschema.Schema{
		"id":    {Type: "string", Pattern: "^WU-[0-9]+$"},
		"level": {Type: "string", Enum: []any{"low", "high"}, Default: json.RawMessage(`"low"`)},
		"tags":  {Type: "array", Items: &jsonschema.Schema{Type: "string"}, MinItems: jsonschema.Ptr(1)},
	}}
	w, err := tool.Wire(tool.Spec{Name: "x", InputSchema: s}, tool.DialectOpenAIStrict)
	require.NoError(t, err)
	require.True(t, w.Strict)
	b, _ := json.Marshal(w.InputSchema)
	assert.JSONEq(t, `{"type":"object","additionalProperties":false,"required":["id","level","tags"],"properties":{
		"id":{"type":"string","pattern":"^WU-[0-9]+$"},
		"level":{"type":["string","null"],"enum":["low","high",null]},
		"tags":{"type":["array","null"],"items":{"type":"string"},"minItems":1}}}`, string(b))

	// A keyword strict mode lacks: the portable form, not marked.
	s.Properties["id"].MinLength = jsonschema.Ptr(1)
	w, err = tool.Wire(tool.Spec{Name: "x", InputSchema: s}, tool.DialectOpenAIStrict)
	require.NoError(t, err)
	assert.False(t, w.Strict)
	assert.NotContains(t, w.InputSchema, "additionalProperties")
}

func TestDropNulls(t *testing.T) {
	assert.JSONEq(t, `{"a":1}`, string(tool.DropNulls(json.RawMessage(`{"a":1,"b":null}`))))
	assert.Equal(t, `{"a":1}`, string(tool.DropNulls(json.RawMessage(`{"a":1}`))))
	assert.Equal(t, `[null]`, string(tool.DropNulls(json.RawMessage(`[null]`))))
}

func TestParseDialect(t *testing.T) {
	d, err := tool.ParseDialect("")
	require.NoError(t, err)
	assert.Equal(t, tool.DialectPortable, d)
	_, err = tool.ParseDialect("gemini")
	assert.Error(t, err)
}
