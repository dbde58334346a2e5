// Package providerrules encodes, as small functions, what each major model API documents
// about a tool's input schema (OpenAI function calling, strict and not, Anthropic tools,
// Gemini function declarations' parameters and parametersJsonSchema). Each function
// takes a schema as sent (generic JSON) and returns the rules it breaks, none when the
// provider takes it as sent; each names its source. Tests hold tools/list to them
// (surface/mcp, and the outside module in the repository root).
package providerrules

import (
	"fmt"
	"slices"
	"strings"
)

// topLevel returns the top-level keywords of s that are in banned.
func topLevel(s map[string]any, banned ...string) []string {
	var out []string
	for _, k := range banned {
		if _, ok := s[k]; ok {
			out = append(out, "top-level "+k)
		}
	}
	return out
}

func objectAtTop(s map[string]any) []string {
	if s["type"] != "object" {
		return []string{fmt.Sprintf("top-level type is %v, not object", s["type"])}
	}
	return nil
}

// OpenAIFunction: OpenAI function calling, non-strict. Source: OpenAI API reference,
// "Function calling" guide (platform.openai.com/docs/guides/function-calling), where
// parameters is a JSON Schema object; the API refuses any other with the documented
// 400 "Invalid schema for function …: schema must have type 'object' and not have
// 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level".
func OpenAIFunction(s map[string]any) []string {
	return append(objectAtTop(s), topLevel(s, "oneOf", "anyOf", "allOf", "enum", "not")...)
}

// AnthropicTool: Anthropic Messages API tools. Source: docs.anthropic.com, "Tool use"
// (build-with-claude/tool-use), input_schema: a JSON Schema object; the API answers
// "input_schema does not support oneOf, allOf, or anyOf at the top level".
func AnthropicTool(s map[string]any) []string {
	return append(objectAtTop(s), topLevel(s, "oneOf", "anyOf", "allOf")...)
}

// geminiSchemaFields are the fields of the Gemini API's Schema object, the OpenAPI 3.0
// subset FunctionDeclaration.parameters takes. Source: ai.google.dev/api, "Schema"
// (generativelanguage v1beta: type, format, title, description, nullable, enum,
// maxItems, minItems, properties, required, minProperties, maxProperties, minLength,
// maxLength, pattern, example, anyOf, propertyOrdering, default, items, minimum,
// maximum). $schema, additionalProperties, not, const, oneOf, allOf are not among them.
var geminiSchemaFields = map[string]bool{
	"type": true, "format": true, "title": true, "description": true, "nullable": true,
	"enum": true, "maxItems": true, "minItems": true, "properties": true, "required": true,
	"minProperties": true, "maxProperties": true, "minLength": true, "maxLength": true,
	"pattern": true, "example": true, "anyOf": true, "propertyOrdering": true,
	"default": true, "items": true, "minimum": true, "maximum": true,
}

// geminiTypes are the Schema.type values (the Type enum; hosts send them in either case).
var geminiTypes = []string{"string", "number", "integer", "boolean", "array", "object"}

// GeminiParameters: FunctionDeclaration.parameters (same source): every field of every
// sub-schema is a Schema field, type is one of the Type values (never a list), and enum
// holds strings.
func GeminiParameters(s map[string]any) []string {
	out := objectAtTop(s)
	var walk func(path string, x map[string]any)
	walk = func(path string, x map[string]any) {
		for k, v := range x {
			if !geminiSchemaFields[k] {
				out = append(out, path+": field "+k+" is not in Gemini's Schema")
				continue
			}
			switch k {
			case "type":
				t, ok := v.(string)
				if !ok || !slices.Contains(geminiTypes, strings.ToLower(t)) {
					out = append(out, fmt.Sprintf("%s: type %v is not one Gemini Type", path, v))
				}
			case "enum":
				for _, e := range v.([]any) {
					if _, ok := e.(string); !ok {
						out = append(out, fmt.Sprintf("%s: enum value %v is not a string", path, e))
					}
				}
			case "items":
				walk(path+"/items", v.(map[string]any))
			case "properties":
				for name, p := range v.(map[string]any) {
					walk(path+"/"+name, p.(map[string]any))
				}
			case "anyOf":
				for i, a := range v.([]any) {
					walk(fmt.Sprintf("%s/anyOf/%d", path, i), a.(map[string]any))
				}
			}
		}
	}
	walk("", s)
	return out
}

// GeminiJSONSchema: FunctionDeclaration.parametersJsonSchema, which takes JSON Schema
// but must describe an object. Source: ai.google.dev/api, "FunctionDeclaration"
// (parametersJsonSchema), and the Gemini docs' "Function calling" and "Structured
// output" pages, which list the JSON Schema keywords the model follows; not, const and
// if/then/else are not among them and are dropped, so a schema relying on them would
// tell the model less than the tool enforces.
func GeminiJSONSchema(s map[string]any) []string {
	out := objectAtTop(s)
	var walk func(path string, x any)
	walk = func(path string, x any) {
		switch v := x.(type) {
		case map[string]any:
			for k, sub := range v {
				if k == "not" || k == "const" || k == "if" || k == "then" || k == "else" || k == "dependentSchemas" {
					out = append(out, path+": "+k+" is dropped")
				}
				walk(path+"/"+k, sub)
			}
		case []any:
			for i, sub := range v {
				walk(fmt.Sprintf("%s/%d", path, i), sub)
			}
		}
	}
	for k, v := range s {
		if k == "properties" {
			for name, p := range v.(map[string]any) {
				walk("/"+name, p)
			}
			continue
		}
		walk("/"+k, v)
	}
	return out
}

// openAIStrictKeywords: OpenAI Structured Outputs, "Supported schemas"
// (platform.openai.com/docs/guides/structured-outputs): besides type, description,
// enum, properties, required, additionalProperties and items, strings take pattern and
// format, numbers multipleOf, maximum, exclusiveMaximum, minimum, exclusiveMinimum,
// arrays minItems and maxItems.
var openAIStrictKeywords = map[string]bool{
	"type": true, "description": true, "enum": true, "properties": true, "required": true,
	"additionalProperties": true, "items": true, "pattern": true, "format": true,
	"multipleOf": true, "maximum": true, "exclusiveMaximum": true, "minimum": true,
	"exclusiveMinimum": true, "minItems": true, "maxItems": true, "anyOf": true,
}

// OpenAIStrict: the same page, "Supported schemas": the root is an object and not
// anyOf; every object has additionalProperties false and lists every property in
// required (an optional one is typed with "null" instead); only the keywords above.
func OpenAIStrict(s map[string]any) []string {
	out := OpenAIFunction(s)
	var walk func(path string, x map[string]any)
	walk = func(path string, x map[string]any) {
		for k, v := range x {
			if !openAIStrictKeywords[k] {
				out = append(out, path+": keyword "+k+" is not supported in strict mode")
			}
			if k == "items" {
				walk(path+"/items", v.(map[string]any))
			}
		}
		if props, ok := x["properties"].(map[string]any); ok {
			if x["additionalProperties"] != false {
				out = append(out, path+": object without additionalProperties false")
			}
			req, _ := x["required"].([]any)
			for name, p := range props {
				if !slices.Contains(req, any(name)) {
					out = append(out, path+"/"+name+": not required")
				}
				walk(path+"/"+name, p.(map[string]any))
			}
		}
	}
	walk("", s)
	return out
}

// Portable are the rules a schema in the portable dialect must keep, by provider.
var Portable = map[string]func(map[string]any) []string{
	"openai": OpenAIFunction, "anthropic": AnthropicTool,
	"gemini parameters": GeminiParameters, "gemini parametersJsonSchema": GeminiJSONSchema,
}
