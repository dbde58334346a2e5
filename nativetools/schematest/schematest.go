// Package schematest builds test inputs from tool input schemas: one value for every
// declared property, so tests can prove each property reaches its lane. It is used by
// tests only and never by a lane.
package schematest

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
)

// FullInput returns an object that sets every property of s to a non-zero value of its
// type that s accepts (the first enum value when there is an enum, a value within the
// bounds, a sample of the pattern).
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
		if s.Maximum != nil && *s.Maximum < v {
			v = *s.Maximum
		}
		return v
	case "number":
		return 7.5
	case "array":
		return []any{value(name, s.Items)}
	case "object":
		return FullInput(s)
	}
	if s.Pattern == tool.OperandPattern {
		return "x-" + name
	}
	if s.Pattern != "" {
		v, ok := samples[s.Pattern]
		if !ok {
			panic("schematest: no sample value for pattern " + s.Pattern + " (add one to samples)")
		}
		return v
	}
	return "x-" + name
}

// samples are values matching the patterns the corpus's schemas use (corpus §2.1 forms).
var samples = map[string]string{
	delivery.WUIDPattern:     "WU-7",
	delivery.MemoryIDPattern: "mem-0a7b",
	delivery.DatePattern:     "2026-03-01",
	delivery.DurationPattern: "7d",
	delivery.NonBlankPattern: "x",
	delivery.PlanIDPattern:   "WU-7",
	ops.ConfigKeyPattern:     "software_delivery.x",
}
