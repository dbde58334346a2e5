package tool_test

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"

	"github.com/cmdbridge/cmdbridge/tool"
)

// TestConditionHolds: unset is exactly what the argv builder omits (absent, null,
// false, an empty list); "" and 0 are passed on, so they are set; equals compares JSON.
func TestConditionHolds(t *testing.T) {
	for _, tc := range []struct {
		input string
		cond  tool.Condition
		want  bool
	}{
		{`{}`, tool.IsUnset("x"), true},
		{`{"x":null}`, tool.IsUnset("x"), true},
		{`{"x":false}`, tool.IsUnset("x"), true},
		{`{"x":[]}`, tool.IsUnset("x"), true},
		{`{"x":true}`, tool.IsUnset("x"), false},
		{`{"x":""}`, tool.IsUnset("x"), false},
		{`{"x":0}`, tool.IsUnset("x"), false},
		{`{"x":["a"]}`, tool.IsSet("x"), true},
		{`{"x":false}`, tool.IsSet("x"), false},
		{`{"x":"resume"}`, tool.IsEqual("x", "resume"), true},
		{`{"x":"reset"}`, tool.IsEqual("x", "resume"), false},
		{`{}`, tool.IsEqual("x", "resume"), false},
		{`{"x":3}`, tool.IsEqual("x", 3), true},
		{`{"x":["a","b"]}`, tool.IsEqual("x", []string{"a", "b"}), true},
		{`{"x":true}`, tool.Condition{Property: "x", Is: "maybe"}, false},
	} {
		var in map[string]any
		assert.NoError(t, json.Unmarshal([]byte(tc.input), &in))
		assert.Equal(t, tc.want, tc.cond.Holds(in), "%s %s", tc.cond, tc.input)
	}
}

// TestEffectOfTakesTheFirstEffectThatHolds and keeps the other annotations.
func TestEffectOfTakesTheFirstEffectThatHolds(t *testing.T) {
	spec := tool.Spec{Name: "t", Annotations: tool.Annotations{DestructiveHint: true, IdempotentHint: true, OpenWorldHint: true},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsUnset("fix")), tool.WritesWhen(tool.IsSet("fix"), tool.IsSet("gentle"))}}
	for _, tc := range []struct {
		input, kind string
		index       int
	}{
		{`{}`, "read_only", 0},
		{`{"fix":true,"gentle":true}`, "write", 1},
		{`{"fix":true}`, "destructive", -1},
	} {
		var in map[string]any
		assert.NoError(t, json.Unmarshal([]byte(tc.input), &in))
		a, i := spec.EffectOf(in)
		assert.Equal(t, tc.kind, a.Kind(), tc.input)
		assert.Equal(t, tc.index, i, tc.input)
		assert.True(t, a.IdempotentHint && a.OpenWorldHint, "only read-only and destructive change")
	}
	assert.Equal(t, "without fix", spec.Effects[0].Describe())
	assert.Equal(t, "with fix and with gentle", spec.Effects[1].Describe())
	assert.Equal(t, `with action="resume"`, tool.IsEqual("action", "resume").String())
}

// Running workspace code is never read-only, and an effect claims it only for a tool
// whose annotations do.
func TestRunsCodeEffectsOnlyNarrow(t *testing.T) {
	schema := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"skip": {Type: "boolean"}}}
	for _, c := range []struct {
		name string
		spec tool.Spec
		ok   bool
	}{
		{"narrowed by an effect", tool.Spec{Name: "t", InputSchema: schema, Annotations: tool.Annotations{RunsCodeHint: true},
			Effects: []tool.Effect{tool.WritesWhen(tool.IsSet("skip"))}}, true},
		{"read-only and runs code", tool.Spec{Name: "t", InputSchema: schema, Annotations: tool.Annotations{RunsCodeHint: true, ReadOnlyHint: true}}, false},
		{"an effect claims more", tool.Spec{Name: "t", InputSchema: schema,
			Effects: []tool.Effect{{When: []tool.Condition{tool.IsSet("skip")}, RunsCode: true}}}, false},
	} {
		err := c.spec.CheckEffects()
		assert.Equal(t, c.ok, err == nil, "%s: %v", c.name, err)
	}
}
