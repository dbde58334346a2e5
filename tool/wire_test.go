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
		"list":{"type":"boolean","description":"list every lock"},
		"lane":{"type":"string"},
		"reason":{"type":"string","description":"why"},
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

// TestWireLeavesOutWhatKeywordsSay: the words of a property's description that its
// keywords or its name already say are not sent; the others are, in their order.
func TestWireLeavesOutWhatKeywordsSay(t *testing.T) {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
		"status": {Type: "array", Description: "only WUs with this status (repeatable; ready|done)",
			Items: &jsonschema.Schema{Type: "string", Enum: []any{"ready", "done"}}},
		"kind":  {Type: "string", Description: "what to print (all|dora; default all; never written)", Enum: []any{"all", "dora"}, Default: json.RawMessage(`"all"`)},
		"ttl":   {Type: "string", Description: "older than this (default: memory.ttl) (e.g. 30m, 24h, 7d)", Pattern: `^([0-9]+)([smhdw])$`},
		"end":   {Type: "string", Description: "last day (YYYY-MM-DD)", Pattern: `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`},
		"title": {Type: "string", Description: "short title (5 to 100 characters)", MinLength: jsonschema.Ptr(5), MaxLength: jsonschema.Ptr(100)},
		"tier":  {Type: "integer", Description: "tier (integer from 1 to 3)", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(3.0)},
		"ids":   {Type: "array", Description: "blockers (WU-<n>, repeatable)", Items: &jsonschema.Schema{Type: "string", Pattern: "^WU-[0-9]+$"}},
		"tag":   {Type: "string", Description: "the tag"},
		"lane":  {Type: "string", Description: "only this lane"},
		"since": {Type: "string", Description: "a date (YYYY-MM-DD) or a duration (e.g. 30m, 24h, 7d)"},
	}}
	w, err := tool.Wire(tool.Spec{Name: "x", InputSchema: s}, tool.DialectPortable)
	require.NoError(t, err)
	got := map[string]any{}
	for name, p := range w.InputSchema["properties"].(map[string]any) {
		got[name] = p.(map[string]any)["description"]
	}
	assert.Equal(t, map[string]any{
		"status": "only WUs with this status",
		"kind":   "what to print (never written)",
		"ttl":    "older than this (default: memory.ttl)",
		"end":    "last day",
		"title":  "short title",
		"tier":   nil, // "tier" is all that is left: its name
		"ids":    "blockers",
		"tag":    nil,
		"lane":   "only this lane",
		// No keyword says these: the property has no pattern.
		"since": "a date (YYYY-MM-DD) or a duration (e.g. 30m, 24h, 7d)",
	}, got)
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

// TestWireMergesRulesIntoFewerWords: the description states the rules in merged
// sentences that mean the same; the schema keeps each rule, and the kernel's refusal
// names the one a call broke.
func TestWireMergesRulesIntoFewerWords(t *testing.T) {
	props := map[string]*jsonschema.Schema{}
	for _, p := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		props[p] = &jsonschema.Schema{Type: "boolean"}
	}
	c := func(k tool.ConstraintKind, p ...string) tool.Constraint {
		return tool.Constraint{Kind: k, Properties: p}
	}
	for _, tc := range []struct {
		name  string
		rules []tool.Constraint
		want  string
	}{
		{"a clique of exclusions", []tool.Constraint{c(tool.Exclusive, "a", "b"), c(tool.Exclusive, "a", "c"), c(tool.Exclusive, "b", "c")},
			"at most one of a, b, c may be given"},
		{"a clique and one of it required", []tool.Constraint{c(tool.Exclusive, "a", "b"), c(tool.Exclusive, "a", "c"), c(tool.Exclusive, "b", "c"), c(tool.AnyOf, "c", "b", "a")},
			"exactly one of a, b, c is required"},
		{"one of a pair required, stated first", []tool.Constraint{c(tool.AnyOf, "a", "b"), c(tool.Requires, "c", "d"), c(tool.Exclusive, "b", "a")},
			"exactly one of b, a is required; c requires d"},
		{"a star of exclusions", []tool.Constraint{c(tool.Exclusive, "a", "b"), c(tool.Exclusive, "a", "c"), c(tool.Exclusive, "a", "d"), c(tool.AnyOf, "a", "b"), c(tool.Requires, "b", "c")},
			"a cannot be given with b, c or d; one of a, b is required; b requires c"},
		{"one pair is left as it is", []tool.Constraint{c(tool.Exclusive, "e", "f"), c(tool.AnyOf, "e", "g")},
			"e and f cannot be given together; one of e, g is required"},
		{"together rules sharing a property", []tool.Constraint{c(tool.Together, "a", "b"), c(tool.Requires, "e", "f"), c(tool.Together, "c", "d"), c(tool.Together, "a", "c")},
			"a, b, c and d must be given together; e requires f"},
		{"together rules apart", []tool.Constraint{c(tool.Together, "a", "b"), c(tool.Together, "c", "d")},
			"a and b must be given together; c and d must be given together"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &jsonschema.Schema{Type: "object", Properties: props}
			require.NoError(t, tool.ApplyConstraints(s, tc.rules...))
			w, err := tool.Wire(tool.Spec{Name: "x", Description: "X.", InputSchema: s}, tool.DialectPortable)
			require.NoError(t, err)
			assert.Equal(t, "X. Rules: "+tc.want+".", w.Description)
			assert.Len(t, tool.Rules(s), len(tc.rules), "the schema keeps every rule")
		})
	}
}
