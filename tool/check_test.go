package tool_test

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

func schemaOf(t *testing.T, text string) *jsonschema.Schema {
	t.Helper()
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal([]byte(text), &s))
	return &s
}

func decoded(t *testing.T, text string) any {
	t.Helper()
	v, _, out := tool.DecodeInput(json.RawMessage(text))
	require.Nil(t, out)
	return v
}

// TestCheckInputNamesThePlace: jsonschema-go decides, and the refusal points at the
// deepest value at fault with jsonschema-go's reason.
func TestCheckInputNamesThePlace(t *testing.T) {
	spec := &tool.Spec{Name: "t", InputSchema: schemaOf(t, `{"type":"object","additionalProperties":false,"required":["id"],
		"properties":{"id":{"type":"string","pattern":"^WU-[0-9]+$"},
		"tags":{"type":"array","items":{"type":"string","enum":["a","b"]}},
		"n":{"type":"integer","minimum":1},
		"deep":{"type":"object","properties":{"list":{"type":"array","items":{"type":"object","required":["k"],"properties":{"k":{"type":"boolean"}}}}}}}}`)}
	for _, tc := range []struct{ input, path, reason string }{
		{`{"id":"WU-1","x":1}`, "/x", "unknown property"},
		{`{"tags":["a"]}`, "/id", "required property is missing"},
		{`{"id":"twelve"}`, "/id", `pattern: "twelve" does not match regular expression "^WU-[0-9]+$"`},
		{`{"id":"WU-1","tags":["a","c"]}`, "/tags/1", `enum: c does not equal any of: [a b]`},
		{`{"id":"WU-1","tags":["a",3]}`, "/tags/1", `type: 3 has type "integer", want "string"`},
		{`{"id":"WU-1","n":0}`, "/n", `minimum: 0/1 is less than 1.000000`},
		{`{"id":"WU-1","n":1.5}`, "/n", `type: 1.5 has type "number", want "integer"`},
		{`{"id":"WU-1","deep":{"list":[{"k":true},{}]}}`, "/deep/list/1/k", "required property is missing"},
		{`{"id":"WU-1","deep":{"list":[{"k":"yes"}]}}`, "/deep/list/0/k", `type: yes has type "string", want "boolean"`},
		// A value at fault comes before a missing property of its parent.
		{`{"n":0}`, "/n", `minimum: 0/1 is less than 1.000000`},
		{`[]`, "/", `the input is a JSON array, not an object of the tool's properties`},
	} {
		out := spec.CheckInput(decoded(t, tc.input))
		require.NotNil(t, out, tc.input)
		assert.Equal(t, tool.CodeInvalidInput, out.Code, tc.input)
		assert.Equal(t, map[string]any{"path": tc.path, "reason": tc.reason}, out.Details, tc.input)
		assert.Equal(t, "t: invalid input at "+tc.path+": "+tc.reason, out.Message, tc.input)
	}
	for _, good := range []string{`{"id":"WU-7"}`, `{"id":"WU-7","tags":[],"n":3,"deep":{"list":[{"k":false}]}}`} {
		assert.Nil(t, spec.CheckInput(decoded(t, good)), good)
	}
}

// TestCheckInputRules: a broken rule between properties is refused in its own words,
// naming its properties; a value at fault is reported before any rule.
func TestCheckInputRules(t *testing.T) {
	s := schemaOf(t, `{"type":"object","properties":{"wu":{"type":"string"},"initiative":{"type":"string"},"all":{"type":"boolean"}}}`)
	require.NoError(t, tool.ApplyConstraints(s,
		tool.Constraint{Kind: tool.AnyOf, Properties: []string{"wu", "initiative"}},
		tool.Constraint{Kind: tool.Exclusive, Properties: []string{"wu", "all"}}))
	spec := &tool.Spec{Name: "t", InputSchema: s}

	out := spec.CheckInput(decoded(t, `{}`))
	require.NotNil(t, out)
	assert.Equal(t, "t: invalid input: one of wu, initiative is required", out.Message)
	d := out.Details.(map[string]any)
	assert.Equal(t, []string{"wu", "initiative"}, d["properties"])
	assert.Equal(t, "/", d["path"])

	out = spec.CheckInput(decoded(t, `{"wu":"WU-1","all":true}`))
	require.NotNil(t, out)
	assert.Equal(t, "t: invalid input: wu and all cannot be given together", out.Message)

	out = spec.CheckInput(decoded(t, `{"all":"yes"}`))
	require.NotNil(t, out)
	assert.Equal(t, "/all", out.Details.(map[string]any)["path"])

	assert.Nil(t, spec.CheckInput(decoded(t, `{"initiative":"INIT-1","all":true}`)))

	// A value that is not an object meets the rules vacuously: it is refused for
	// what it is, not for a rule it does not break.
	for raw, kind := range map[string]string{`"wu=WU-1"`: "string", `["WU-1"]`: "array", `7`: "number", `7.5`: "number"} {
		out = spec.CheckInput(decoded(t, raw))
		require.NotNil(t, out, raw)
		assert.Equal(t, "t: invalid input at /: the input is a JSON "+kind+", not an object of the tool's properties", out.Message)
	}
}

// TestCheckInputReferences: a subschema that cannot be validated on its own (a
// reference into the root's definitions) is reported at its parent, still decided by
// jsonschema-go.
func TestCheckInputReferences(t *testing.T) {
	spec := &tool.Spec{Name: "t", InputSchema: schemaOf(t, `{"type":"object","$defs":{"id":{"type":"string","minLength":2}},
		"properties":{"id":{"$ref":"#/$defs/id"}}}`)}
	out := spec.CheckInput(decoded(t, `{"id":"x"}`))
	require.NotNil(t, out)
	assert.Equal(t, "/", out.Details.(map[string]any)["path"])
	assert.Contains(t, out.Details.(map[string]any)["reason"], "minLength")
	assert.Nil(t, spec.CheckInput(decoded(t, `{"id":"xy"}`)))
}

// TestCheckInputWithoutSchema: a spec without an input schema takes any input; one
// whose schema does not resolve refuses every call as INTERNAL.
func TestCheckInputWithoutSchema(t *testing.T) {
	assert.Nil(t, (&tool.Spec{Name: "t"}).CheckInput(map[string]any{"x": 1}))
	bad := &tool.Spec{Name: "t", InputSchema: schemaOf(t, `{"$ref":"#/$defs/missing"}`)}
	out := bad.CheckInput(map[string]any{})
	require.NotNil(t, out)
	assert.Equal(t, tool.CodeInternal, out.Code)
}

// TestDecodeInput: absent input is the empty object; integers stay exact; trailing
// text is refused.
func TestDecodeInput(t *testing.T) {
	v, canonical, out := tool.DecodeInput(nil)
	require.Nil(t, out)
	assert.Equal(t, map[string]any{}, v)
	assert.Equal(t, "{}", string(canonical))

	v, canonical, out = tool.DecodeInput(json.RawMessage(` {"b":9007199254740993,"a":1.5} `))
	require.Nil(t, out)
	assert.Equal(t, map[string]any{"a": 1.5, "b": int64(9007199254740993)}, v)
	assert.Equal(t, `{"a":1.5,"b":9007199254740993}`, string(canonical))

	_, _, out = tool.DecodeInput(json.RawMessage(`{} {}`))
	require.NotNil(t, out)
	assert.Equal(t, tool.CodeInvalidInput, out.Code)
}
