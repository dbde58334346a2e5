// Package schematest builds test inputs from tool input schemas: one value for every
// declared property, so tests can prove each property reaches its lane. It is used by
// tests only and never by a lane.
package schematest

import (
	"github.com/google/jsonschema-go/jsonschema"
)

// FullInput returns an object that sets every property of s to a non-zero value of its
// type (the first enum value when there is an enum).
func FullInput(s *jsonschema.Schema) map[string]any {
	out := map[string]any{}
	for name, p := range s.Properties {
		out[name] = value(name, p)
	}
	return out
}

func value(name string, s *jsonschema.Schema) any {
	if s == nil {
		return "x"
	}
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	t := s.Type
	if t == "" && len(s.Types) > 0 {
		t = s.Types[0]
		if t == "null" && len(s.Types) > 1 {
			t = s.Types[1]
		}
	}
	switch t {
	case "boolean":
		return true
	case "integer":
		v := 7.0
		if s.Minimum != nil && *s.Minimum > v {
			v = *s.Minimum
		}
		return v
	case "number":
		return 7.5
	case "array":
		return []any{value(name, s.Items)}
	case "object":
		return FullInput(s)
	}
	return "x-" + name
}
