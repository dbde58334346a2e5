package mcp

import (
	"encoding/json"
)

// wireSchema marshals s for tools/list with every boolean sub-schema written as an
// object: true as {} and false as {"not":{}}. JSON Schema allows booleans anywhere a
// schema goes, but MCP's wire schema types a tool's properties as objects, and
// clients that check it (the TypeScript SDK from 1.22 on) reject the whole listing
// over one boolean. The one boolean kept is additionalProperties: false, the
// universal spelling of a closed object, which clients accept.
func wireSchema(s any) (json.RawMessage, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	if !objectSubschemas(v) {
		return raw, nil // nothing to rewrite: keep the kernel's bytes
	}
	return json.Marshal(v)
}

// Keywords whose value is a schema, a list of schemas, or a map of schemas (2020-12
// and the draft-07 spellings).
var (
	schemaKeywords = map[string]bool{
		"additionalProperties": true, "items": true, "additionalItems": true, "contains": true,
		"not": true, "if": true, "then": true, "else": true, "propertyNames": true,
		"unevaluatedProperties": true, "unevaluatedItems": true, "contentSchema": true,
	}
	schemaListKeywords = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true, "items": true}
	schemaMapKeywords  = map[string]bool{
		"properties": true, "patternProperties": true, "$defs": true, "definitions": true,
		"dependentSchemas": true, "dependencies": true,
	}
)

// objectSubschemas rewrites the boolean sub-schemas of the schema v in place and
// reports whether it changed anything.
func objectSubschemas(v any) bool {
	obj, ok := v.(map[string]any)
	if !ok {
		return false
	}
	changed := false
	fix := func(x any, keepFalse bool) (any, bool) {
		switch b := x.(type) {
		case bool:
			if b {
				return map[string]any{}, true
			}
			if keepFalse {
				return b, false
			}
			return map[string]any{"not": map[string]any{}}, true
		case map[string]any:
			return b, objectSubschemas(b)
		}
		return x, false
	}
	for key, val := range obj {
		switch {
		case schemaMapKeywords[key]:
			m, ok := val.(map[string]any)
			if !ok {
				continue
			}
			for name, sub := range m {
				if _, isList := sub.([]any); isList {
					continue // draft-07 dependencies: a list of property names
				}
				nv, c := fix(sub, false)
				m[name] = nv
				changed = changed || c
			}
		case schemaListKeywords[key]:
			if list, ok := val.([]any); ok {
				for i, sub := range list {
					nv, c := fix(sub, false)
					list[i] = nv
					changed = changed || c
				}
				continue
			}
			fallthrough
		case schemaKeywords[key]:
			nv, c := fix(val, key == "additionalProperties" || key == "unevaluatedProperties")
			obj[key] = nv
			changed = changed || c
		}
	}
	return changed
}
