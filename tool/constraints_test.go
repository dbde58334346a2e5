package tool

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func objectSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","properties":{
		"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"},
		"flag":{"type":"boolean"},"list":{"type":"array","items":{"type":"string"}},
		"mode":{"type":"string","enum":["x","y","z"]}},"additionalProperties":false}`), &s))
	return &s
}

func TestConstraintMessages(t *testing.T) {
	for _, tc := range []struct {
		c    Constraint
		want string
	}{
		{Constraint{Kind: Required, Properties: []string{"id"}}, "id is required"},
		{Constraint{Kind: AnyOf, Properties: []string{"wu", "initiative"}}, "one of wu, initiative is required"},
		{Constraint{Kind: AnyOf, Properties: []string{"wu"}}, "wu is required"},
		{Constraint{Kind: Exclusive, Properties: []string{"wu", "initiative"}}, "wu and initiative cannot be given together"},
		{Constraint{Kind: Exclusive, Properties: []string{"a", "b", "c"}}, "at most one of a, b, c may be given"},
		{Constraint{Kind: Requires, Properties: []string{"phase", "initiative"}}, "phase requires initiative"},
		{Constraint{Kind: Requires, Properties: []string{"action", "force"}, Values: []any{"reset", "nuke"}}, "force is required when action is reset or nuke"},
		{Constraint{Kind: Together, Properties: []string{"id", "lane"}}, "id and lane must be given together"},
		{Constraint{Kind: Together, Properties: []string{"a", "b", "c"}}, "a, b and c must be given together"},
	} {
		assert.Equal(t, tc.want, tc.c.Message())
	}
}

// TestApplyConstraintsValidates checks what each kind accepts and refuses, with the
// "given" test of corpus §2.6 (false and [] are not given).
func TestApplyConstraintsValidates(t *testing.T) {
	cases := []struct {
		c    Constraint
		ok   []string
		fail []string
	}{
		{Constraint{Kind: Required, Properties: []string{"list"}},
			[]string{`{"list":["v"]}`}, []string{`{}`, `{"list":[]}`}},
		{Constraint{Kind: AnyOf, Properties: []string{"a", "flag", "list"}},
			[]string{`{"a":""}`, `{"flag":true}`, `{"list":["v"]}`, `{"a":"v","flag":true}`},
			[]string{`{}`, `{"flag":false}`, `{"list":[]}`, `{"flag":false,"list":[]}`}},
		{Constraint{Kind: Exclusive, Properties: []string{"a", "flag"}},
			[]string{`{}`, `{"a":"v"}`, `{"flag":true}`, `{"a":"v","flag":false}`},
			[]string{`{"a":"v","flag":true}`}},
		{Constraint{Kind: Exclusive, Properties: []string{"a", "b", "c"}},
			[]string{`{"a":"v"}`, `{"c":"v"}`, `{}`},
			[]string{`{"a":"v","b":"v"}`, `{"b":"v","c":"v"}`, `{"a":"v","c":"v"}`}},
		{Constraint{Kind: Requires, Properties: []string{"list", "flag"}},
			[]string{`{}`, `{"list":[]}`, `{"list":["v"],"flag":true}`, `{"flag":true}`},
			[]string{`{"list":["v"]}`, `{"list":["v"],"flag":false}`}},
		{Constraint{Kind: Requires, Properties: []string{"mode", "a"}, Values: []any{"x", "y"}},
			[]string{`{}`, `{"mode":"z"}`, `{"mode":"x","a":"v"}`},
			[]string{`{"mode":"x"}`, `{"mode":"y"}`}},
		{Constraint{Kind: Together, Properties: []string{"a", "b", "flag"}},
			[]string{`{}`, `{"a":"v","b":"v","flag":true}`, `{"flag":false}`},
			[]string{`{"a":"v"}`, `{"a":"v","b":"v"}`, `{"flag":true}`, `{"a":"v","b":"v","flag":false}`}},
	}
	for _, tc := range cases {
		t.Run(tc.c.Message(), func(t *testing.T) {
			s := objectSchema(t)
			require.NoError(t, ApplyConstraints(s, tc.c))
			assert.Nil(t, s.AnyOf, "no top-level anyOf")
			assert.Nil(t, s.AllOf, "no top-level allOf")
			res, err := s.Resolve(nil)
			require.NoError(t, err)
			for _, in := range tc.ok {
				var v any
				require.NoError(t, json.Unmarshal([]byte(in), &v))
				assert.NoError(t, res.Validate(v), in)
			}
			for _, in := range tc.fail {
				var v any
				require.NoError(t, json.Unmarshal([]byte(in), &v))
				assert.Error(t, res.Validate(v), in)
			}
			if tc.c.Kind != Required {
				require.NotNil(t, s.Not)
				require.Len(t, s.Not.AnyOf, 1)
				assert.Equal(t, tc.c.Message(), s.Not.AnyOf[0].Description)
			}
		})
	}
}

func TestApplyConstraintsIsDeterministic(t *testing.T) {
	cs := []Constraint{
		{Kind: AnyOf, Properties: []string{"a", "b"}},
		{Kind: Together, Properties: []string{"a", "flag", "list"}},
		{Kind: Required, Properties: []string{"c"}},
	}
	a, b := objectSchema(t), objectSchema(t)
	require.NoError(t, ApplyConstraints(a, cs...))
	require.NoError(t, ApplyConstraints(b, cs...))
	ja, err := json.Marshal(a)
	require.NoError(t, err)
	jb, err := json.Marshal(b)
	require.NoError(t, err)
	assert.Equal(t, string(ja), string(jb))
	assert.Equal(t, []string{"c"}, a.Required)
	// Applying Required twice does not list the property twice.
	require.NoError(t, ApplyConstraints(a, cs[2]))
	assert.Equal(t, []string{"c"}, a.Required)
}

func TestParseConstraints(t *testing.T) {
	var decoded any
	require.NoError(t, json.Unmarshal([]byte(`[{"kind":"requires","properties":["mode","a"],"values":["x"]}]`), &decoded))
	got, err := ParseConstraints(decoded)
	require.NoError(t, err)
	assert.Equal(t, []Constraint{{Kind: Requires, Properties: []string{"mode", "a"}, Values: []any{"x"}}}, got)
	none, err := ParseConstraints(nil)
	require.NoError(t, err)
	assert.Empty(t, none)
	_, err = ParseConstraints(map[string]any{"kind": "any_of"})
	assert.Error(t, err)
}

func TestApplyConstraintsRejects(t *testing.T) {
	for _, c := range []Constraint{
		{Kind: AnyOf, Properties: []string{"a", "missing"}},
		{Kind: AnyOf},
		{Kind: Exclusive, Properties: []string{"a"}},
		{Kind: Exclusive, Properties: []string{"a", "a"}},
		{Kind: Requires, Properties: []string{"a", "b", "c"}},
		{Kind: Together, Properties: []string{"a", "b"}, Values: []any{"x"}},
		{Kind: "xor", Properties: []string{"a", "b"}},
	} {
		assert.Error(t, ApplyConstraints(objectSchema(t), c), "%+v", c)
	}
}
