package mcp

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWireSchemaSpellsBooleanSubschemasAsObjects(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want string
	}{
		{"no booleans: unchanged", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`,
			`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`},
		{"true property", `{"type":"object","properties":{"data":true}}`, `{"type":"object","properties":{"data":{}}}`},
		{"false property", `{"type":"object","properties":{"never":false}}`, `{"type":"object","properties":{"never":{"not":{}}}}`},
		{"nested", `{"type":"object","properties":{"e":{"type":"object","properties":{"details":true},"items":true}}}`,
			`{"type":"object","properties":{"e":{"type":"object","properties":{"details":{}},"items":{}}}}`},
		{"lists and maps", `{"type":"object","anyOf":[true,{"type":"object"}],"$defs":{"x":true},"prefixItems":[false]}`,
			`{"type":"object","anyOf":[{},{"type":"object"}],"$defs":{"x":{}},"prefixItems":[{"not":{}}]}`},
		{"additionalProperties true", `{"type":"object","additionalProperties":true}`, `{"type":"object","additionalProperties":{}}`},
		{"draft-07 dependencies list untouched", `{"type":"object","dependencies":{"a":["b"],"c":true}}`,
			`{"type":"object","dependencies":{"a":["b"],"c":{}}}`},
		{"const and default booleans are values, not schemas", `{"type":"object","properties":{"f":{"const":true,"default":false}}}`,
			`{"type":"object","properties":{"f":{"const":true,"default":false}}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var s jsonschema.Schema
			require.NoError(t, json.Unmarshal([]byte(tc.in), &s))
			got, err := wireSchema(&s)
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(got))
		})
	}
}

func TestOutputSchemaHasNoBooleansAndAllowsNullData(t *testing.T) {
	raw, err := wireSchema(outputSchema(nil))
	require.NoError(t, err)
	assert.NotContains(t, string(raw), "true")
	assert.NotContains(t, string(raw), "false")

	declared := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"id": {Type: "string"}}}
	raw, err = wireSchema(outputSchema(declared))
	require.NoError(t, err)
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal(raw, &s))
	resolved, err := s.Resolve(nil)
	require.NoError(t, err)
	for _, doc := range []string{
		`{"success":true,"data":{"id":"x"},"error":null}`,
		`{"success":false,"data":null,"error":{"code":"NOT_FOUND","message":"m","details":null}}`,
	} {
		var v any
		require.NoError(t, json.Unmarshal([]byte(doc), &v))
		assert.NoError(t, resolved.Validate(v), doc)
	}
	var bad any
	require.NoError(t, json.Unmarshal([]byte(`{"success":true,"data":{"id":7},"error":null}`), &bad))
	assert.Error(t, resolved.Validate(bad), "the declared data schema still applies")
}
