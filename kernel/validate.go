package kernel

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// firstViolation walks instance along schema and returns the JSON pointer and reason of
// the first violation of the common keywords (type, required, additionalProperties,
// enum), so INVALID_INPUT can name the failing value. The full validation by
// jsonschema-go runs afterwards for everything else.
func firstViolation(s *jsonschema.Schema, v any, ptr string) (string, string) {
	if s == nil {
		return "", ""
	}
	if t := schemaTypes(s); len(t) > 0 && !typeMatches(t, v) {
		return ptr, fmt.Sprintf("expected %s, got %s", strings.Join(t, " or "), jsonType(v))
	}
	if len(s.Enum) > 0 {
		found := false
		for _, e := range s.Enum {
			if fmt.Sprint(e) == fmt.Sprint(v) {
				found = true
				break
			}
		}
		if !found {
			return ptr, fmt.Sprintf("value %v is not one of %v", v, s.Enum)
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for _, req := range s.Required {
			if _, ok := x[req]; !ok {
				return ptr + "/" + escape(req), "required property is missing"
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ps, ok := s.Properties[k]
			if !ok {
				if isFalse(s.AdditionalProperties) {
					return ptr + "/" + escape(k), "unknown property"
				}
				ps = s.AdditionalProperties
			}
			if p, why := firstViolation(ps, x[k], ptr+"/"+escape(k)); why != "" {
				return p, why
			}
		}
	case []any:
		for i, e := range x {
			if p, why := firstViolation(s.Items, e, ptr+"/"+strconv.Itoa(i)); why != "" {
				return p, why
			}
		}
	}
	return "", ""
}

func isFalse(s *jsonschema.Schema) bool {
	// jsonschema-go spells "false" as {"not": {}}.
	return s != nil && s.Not != nil && reflect.DeepEqual(*s.Not, jsonschema.Schema{})
}

func schemaTypes(s *jsonschema.Schema) []string {
	if s.Type != "" {
		return []string{s.Type}
	}
	return s.Types
}

func typeMatches(types []string, v any) bool {
	got := jsonType(v)
	for _, t := range types {
		if t == got || (t == "number" && got == "integer") {
			return true
		}
	}
	return false
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case int64:
		return "integer"
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// escape encodes a property name as a JSON pointer token.
func escape(k string) string {
	if !strings.ContainsAny(k, "~/") {
		return k
	}
	return pointerEscaper.Replace(k)
}
