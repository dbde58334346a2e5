package kernel

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/tool"
)

func TestSpeakUsageRewrites(t *testing.T) {
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","properties":{"stat":{"type":"boolean"},
		"name_only":{"type":"boolean"},"phase":{"type":"integer"},"initiative":{"type":"string"},
		"command":{"type":"array","items":{"type":"string"}},"wu":{"type":"string"}}}`), &s))
	for _, tc := range []struct{ in, want string }{
		{"flags --stat and --name-only cannot be used together", "stat and name_only cannot be given together"},
		{"flag --phase requires --initiative", "phase requires initiative"},
		{"missing required flag --wu", "wu is required"},
		{"missing required argument COMMAND", "command is required"},
		{"one of --wu, --initiative is required", "one of wu, initiative is required"},
		{`invalid value "x" for --wu: expected WU-<number>`, `invalid value "x" for wu: expected WU-<number>`},
		// Words that are not inputs of this tool stay.
		{"unknown flag --nope", "unknown flag --nope"},
		{"missing required argument REF", "missing required argument REF"},
		{"invalid environment variable DELIVERY_NOW: not a timestamp", "invalid environment variable DELIVERY_NOW: not a timestamp"},
	} {
		out := speakUsage(&s, tool.FailDetails(tool.CodeUsage, map[string]any{"k": 1}, "%s", tc.in))
		assert.Equal(t, tc.want, out.Error.Message, tc.in)
		d := out.Error.Details.(map[string]any)
		assert.Equal(t, 1, d["k"], "details are kept")
		if tc.want != tc.in {
			assert.Equal(t, tc.in, d["cli_message"])
		} else {
			assert.NotContains(t, d, "cli_message")
		}
	}
	// Other codes, and details the kernel cannot extend, pass unchanged.
	other := tool.Fail(tool.CodeNotFound, "flag --wu requires --initiative")
	assert.Equal(t, other, speakUsage(&s, other))
	odd := tool.FailDetails(tool.CodeUsage, []string{"x"}, "missing required flag --wu")
	assert.Equal(t, "missing required flag --wu", speakUsage(&s, odd).Error.Message)
}

// BenchmarkRuleViolation measures the rule check step 4 adds, on initiative:edit's
// shape (four rules, the last one broken) and on a call that breaks none.
func BenchmarkRuleViolation(b *testing.B) {
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},
		"c":{"type":"boolean"},"d":{"type":"array","items":{"type":"string"}}},"additionalProperties":false}`), &s); err != nil {
		b.Fatal(err)
	}
	if err := tool.ApplyConstraints(&s,
		tool.Constraint{Kind: tool.AnyOf, Properties: []string{"a", "b", "c", "d"}},
		tool.Constraint{Kind: tool.Together, Properties: []string{"a", "b"}},
		tool.Constraint{Kind: tool.Requires, Properties: []string{"d", "a"}},
		tool.Constraint{Kind: tool.Exclusive, Properties: []string{"c", "d"}}); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name  string
		input map[string]any
		fails bool
	}{
		{"valid", map[string]any{"a": "x", "b": "y"}, false},
		{"last-rule-broken", map[string]any{"a": "x", "b": "y", "c": true, "d": []any{"z"}}, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if out := ruleViolation("t", &s, bc.input); (out != nil) != bc.fails {
					b.Fatalf("violation %v, want %v", out, bc.fails)
				}
			}
		})
	}
}

// TestEvalAgreesWithJSONSchema: the direct evaluation of the rules tool.ApplyConstraints
// writes gives what jsonschema-go gives, on every combination of given, false, empty and
// absent values.
func TestEvalAgreesWithJSONSchema(t *testing.T) {
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},
		"c":{"type":"boolean"},"d":{"type":"array","items":{"type":"string"}},"m":{"type":"string"}}}`), &s))
	require.NoError(t, tool.ApplyConstraints(&s,
		tool.Constraint{Kind: tool.AnyOf, Properties: []string{"a", "c", "d"}},
		tool.Constraint{Kind: tool.Together, Properties: []string{"a", "b", "c"}},
		tool.Constraint{Kind: tool.Requires, Properties: []string{"d", "c"}},
		tool.Constraint{Kind: tool.Requires, Properties: []string{"m", "a"}, Values: []any{"x", "y"}},
		tool.Constraint{Kind: tool.Exclusive, Properties: []string{"b", "d", "m"}}))
	rules := rulesOf(&s)
	require.Len(t, rules, 5)
	values := map[string][]any{"a": {nil, "x"}, "b": {nil, ""}, "c": {nil, true, false}, "d": {nil, []any{}, []any{"z"}}, "m": {nil, "x", "z"}}
	inputs := []map[string]any{{}}
	for _, p := range []string{"a", "b", "c", "d", "m"} {
		var next []map[string]any
		for _, in := range inputs {
			for _, v := range values[p] {
				out := map[string]any{}
				for k, x := range in {
					out[k] = x
				}
				if v != nil {
					out[p] = v
				}
				next = append(next, out)
			}
		}
		inputs = next
	}
	require.Len(t, inputs, 2*2*3*3*3)
	broken := 0
	for _, r := range rules {
		require.True(t, r.simple, r.schema.Description)
		res, err := r.schema.Resolve(nil)
		require.NoError(t, err)
		for _, in := range inputs {
			var v any = in
			want := res.Validate(v) == nil
			assert.Equal(t, want, r.matches(v), "%s on %v", r.schema.Description, in)
			if want {
				broken++
			}
		}
	}
	assert.Positive(t, broken)
}

// TestRuleOutsideTheSubsetIsResolved: a hand-written rule with other keywords is
// validated by jsonschema-go.
func TestRuleOutsideTheSubsetIsResolved(t *testing.T) {
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","properties":{"a":{"type":"string"}},
		"not":{"description":"a must not be short","required":["a"],"properties":{"a":{"maxLength":2}}}}`), &s))
	rules := rulesOf(&s)
	require.Len(t, rules, 1)
	assert.False(t, rules[0].simple)
	assert.NotNil(t, ruleViolation("t", &s, map[string]any{"a": "ab"}))
	assert.Nil(t, ruleViolation("t", &s, map[string]any{"a": "abc"}))
	assert.Nil(t, ruleViolation("t", &s, map[string]any{}))
}
