package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Each provider's documented rules for a tool's input schema, as small functions over
// the schema as sent (generic JSON). Each returns the rules the schema breaks.

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

// openAIFunction: OpenAI function calling, non-strict. Source: OpenAI API reference,
// "Function calling" guide (platform.openai.com/docs/guides/function-calling), where
// parameters is a JSON Schema object; the API refuses any other with the documented
// 400 "Invalid schema for function …: schema must have type 'object' and not have
// 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level".
func openAIFunction(s map[string]any) []string {
	return append(objectAtTop(s), topLevel(s, "oneOf", "anyOf", "allOf", "enum", "not")...)
}

// anthropicTool: Anthropic Messages API tools. Source: docs.anthropic.com, "Tool use"
// (build-with-claude/tool-use), input_schema: a JSON Schema object; the API answers
// "input_schema does not support oneOf, allOf, or anyOf at the top level".
func anthropicTool(s map[string]any) []string {
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

// geminiParameters: FunctionDeclaration.parameters (same source): every field of every
// sub-schema is a Schema field, type is one of the Type values (never a list), and enum
// holds strings.
func geminiParameters(s map[string]any) []string {
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

// geminiJSONSchema: FunctionDeclaration.parametersJsonSchema, which takes JSON Schema
// but must describe an object. Source: ai.google.dev/api, "FunctionDeclaration"
// (parametersJsonSchema), and the Gemini docs' "Function calling" and "Structured
// output" pages, which list the JSON Schema keywords the model follows; not, const and
// if/then/else are not among them and are dropped, so a schema relying on them would
// tell the model less than the tool enforces.
func geminiJSONSchema(s map[string]any) []string {
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

// openAIStrict: the same page, "Supported schemas": the root is an object and not
// anyOf; every object has additionalProperties false and lists every property in
// required (an optional one is typed with "null" instead); only the keywords above.
func openAIStrict(s map[string]any) []string {
	out := openAIFunction(s)
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

// listed returns tools/list of k served in dialect d.
func listed(t *testing.T, k *kernel.Kernel, d tool.Dialect) []*sdkmcp.Tool {
	cs := connectInMemoryWith(t, k, nil, mcp.WithSchemaDialect(d))
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	return res.Tools
}

func schemaOf(t *testing.T, tl *sdkmcp.Tool) map[string]any {
	b, err := json.Marshal(tl.InputSchema)
	require.NoError(t, err)
	var s map[string]any
	require.NoError(t, json.Unmarshal(b, &s))
	return s
}

// TestEveryProviderAcceptsTheToolList holds every tool of the corpus, as tools/list
// sends it, to each provider's documented rules: by default (portable) to OpenAI
// function calling, Anthropic, and Gemini's parameters and parametersJsonSchema; with
// the openai-strict dialect, the tools marked strict to OpenAI's strict mode too. The
// outside module (testdata/outside) is not loaded here: building it takes a module
// copy and two binaries (outside_test.go); its schemas come from the same adapter.
func TestEveryProviderAcceptsTheToolList(t *testing.T) {
	k := corpusKernelView(t, t.TempDir(), kernel.View{})
	rules := map[string]func(map[string]any) []string{
		"openai": openAIFunction, "anthropic": anthropicTool,
		"gemini parameters": geminiParameters, "gemini parametersJsonSchema": geminiJSONSchema,
	}
	tools := listed(t, k, tool.DialectPortable)
	require.Len(t, tools, len(k.Tools()))
	withRules := 0
	for _, tl := range tools {
		s := schemaOf(t, tl)
		for provider, check := range rules {
			assert.Empty(t, check(s), "%s: %s refuses or loses part of the schema", tl.Name, provider)
		}
		if strings.Contains(tl.Description, "Rules: ") {
			withRules++
		}
	}
	// The rules between properties are said in words instead.
	full := 0
	for _, spec := range k.Tools() {
		if spec.InputSchema.Not != nil {
			full++
		}
	}
	assert.Equal(t, full, withRules, "every tool with rules between properties states them")
	assert.Positive(t, full)

	var strict, notStrict []string
	for _, tl := range listed(t, k, tool.DialectOpenAIStrict) {
		s := schemaOf(t, tl)
		for provider, check := range rules {
			if provider == "gemini parameters" && tl.Meta[mcp.StrictMetaKey] == true {
				continue // a strict schema is for OpenAI: type lists and additionalProperties
			}
			assert.Empty(t, check(s), "%s (openai-strict dialect): %s", tl.Name, provider)
		}
		if tl.Meta[mcp.StrictMetaKey] == true {
			strict = append(strict, tl.Name)
			assert.Empty(t, openAIStrict(s), "%s: marked strict", tl.Name)
		} else {
			notStrict = append(notStrict, tl.Name)
		}
	}
	// The rule functions bite: the full schema breaks them where the issue says.
	var openAIRefuses, geminiRefuses int
	for _, tl := range listed(t, k, tool.DialectFull) {
		s := schemaOf(t, tl)
		if len(openAIFunction(s)) > 0 {
			openAIRefuses++
		}
		if len(geminiParameters(s)) > 0 {
			geminiRefuses++
		}
	}
	assert.Equal(t, full, openAIRefuses, "full dialect: OpenAI refuses every schema with a top-level not")
	assert.Equal(t, len(tools), geminiRefuses, "full dialect: Gemini refuses $schema and additionalProperties")
	sort.Strings(notStrict)
	t.Logf("openai-strict: %d of %d tools exact; not exact (rules between properties or keywords strict mode lacks): %s",
		len(strict), len(tools), strings.Join(notStrict, ", "))
}

// TestStrictNullsMeanNotGiven: in the openai-strict dialect a host sends null for every
// optional property it does not mean to give; the call runs as without them, and a
// rule between properties is still enforced by the kernel in every dialect.
func TestStrictNullsMeanNotGiven(t *testing.T) {
	k := newFixtureKernel(t, t.TempDir(), nil)
	t.Cleanup(func() { _ = k.Close() })
	cs := connectInMemoryWith(t, k, nil, mcp.WithSchemaDialect(tool.DialectOpenAIStrict))
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var greet *sdkmcp.Tool
	for _, tl := range res.Tools {
		if tl.Name == "fx_greet" {
			greet = tl
		}
	}
	require.NotNil(t, greet)
	require.Equal(t, true, greet.Meta[mcp.StrictMetaKey], "fx_greet's schema is exact in strict form")
	s := schemaOf(t, greet)
	assert.Empty(t, openAIStrict(s))
	assert.Equal(t, []any{"boolean", "null"}, s["properties"].(map[string]any)["noisy"].(map[string]any)["type"])

	call, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{
		Name: "fx_greet", Arguments: map[string]any{"name": "ada", "noisy": nil},
	})
	require.NoError(t, err)
	out := decodeResult(t, call)
	assert.True(t, out.Success, "%+v", out.Error)
}

// TestRulesStillEnforced: what is sent has no rules between properties, the kernel
// still refuses an input that breaks one, naming the properties.
func TestRulesStillEnforced(t *testing.T) {
	k := corpusKernelView(t, t.TempDir(), kernel.View{})
	cs := connectInMemory(t, k)
	call, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{
		Name: "delegation_list", Arguments: map[string]any{"wu": "WU-1", "initiative": "INIT-1"},
	})
	require.NoError(t, err)
	out := decodeResult(t, call)
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeInvalidInput, out.Error.Code)
	assert.Contains(t, out.Error.Message, "wu and initiative cannot be given together")
}
