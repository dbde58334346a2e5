package tool

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/internal/lazyregexp"
)

// Dialect is the form in which a surface sends input schemas to hosts (MCP tools/list,
// HTTP GET /tools). The kernel always validates against the full schema
// ([Spec.InputSchema]); a dialect only changes what is sent. See docs/schemas.md.
type Dialect string

const (
	// DialectPortable (the default) is accepted as sent by OpenAI function calling,
	// Anthropic tools and Gemini function declarations: no keyword at the top level but
	// type, properties and required; no $schema and no additionalProperties. The rules
	// between properties (the full schema's top-level "not") are stated in words in the
	// tool's description and in the descriptions of the properties they name; the
	// kernel still enforces them, and still refuses unknown properties.
	DialectPortable Dialect = "portable"
	// DialectFull sends the full schema the kernel validates against, as it is.
	DialectFull Dialect = "full"
	// DialectOpenAIStrict sends, for every tool whose schema OpenAI's strict mode can
	// state exactly ([WireTool.Strict]), the strict form: every property required, an
	// optional one typed [T, "null"], additionalProperties false, and only keywords
	// strict mode supports. The other tools get the portable form. A null a host sends
	// for an optional property means "not given" ([DropNulls]).
	DialectOpenAIStrict Dialect = "openai-strict"
)

// Dialects lists the dialects, the default first.
var Dialects = []Dialect{DialectPortable, DialectFull, DialectOpenAIStrict}

// ParseDialect reads a dialect name; "" is the default, [DialectPortable].
func ParseDialect(s string) (Dialect, error) {
	if s == "" {
		return DialectPortable, nil
	}
	for _, d := range Dialects {
		if string(d) == s {
			return d, nil
		}
	}
	return "", fmt.Errorf("schema dialect %q is not one of portable, full, openai-strict", s)
}

// Rule is one rule between input properties, read back from a full schema's top-level
// "not" (as [ApplyConstraints] writes it): its words and the properties it names.
type Rule struct {
	Message    string
	Properties []string
}

// Rules returns the rules between properties that s states in its top-level "not".
func Rules(s *jsonschema.Schema) []Rule {
	if s == nil || s.Not == nil {
		return nil
	}
	alts := s.Not.AnyOf
	if len(alts) == 0 {
		alts = []*jsonschema.Schema{s.Not}
	}
	var out []Rule
	for _, v := range alts {
		r := Rule{Message: v.Description}
		collectRequired(v, &r.Properties)
		if r.Message == "" {
			r.Message = "not with " + strings.Join(r.Properties, ", ")
		}
		out = append(out, r)
	}
	return out
}

func collectRequired(s *jsonschema.Schema, into *[]string) {
	if s == nil {
		return
	}
	for _, p := range s.Required {
		if !slices.Contains(*into, p) {
			*into = append(*into, p)
		}
	}
	collectRequired(s.Not, into)
	for _, list := range [][]*jsonschema.Schema{s.AnyOf, s.AllOf, s.OneOf} {
		for _, x := range list {
			collectRequired(x, into)
		}
	}
}

// WireTool is what a surface sends of one tool in a dialect.
type WireTool struct {
	// Description is the tool's description; in the portable and strict dialects it
	// ends with the rules between properties, in words.
	Description string
	// InputSchema is the input schema as generic JSON.
	InputSchema map[string]any
	// Strict is true when InputSchema is OpenAI's strict form of the full schema and
	// states it exactly (only with DialectOpenAIStrict): a host may send the tool with
	// "strict": true.
	Strict bool
}

// rulesPrefix starts the sentence of a description that states the rules.
const rulesPrefix = "Rules: "

// rulesPointer ends the description of a property a rule names.
const rulesPointer = "(see Rules)"

// Wire returns what a surface sends of spec in dialect d. spec.InputSchema is not
// changed.
func Wire(spec Spec, d Dialect) (WireTool, error) {
	if spec.InputSchema == nil {
		return WireTool{Description: spec.Description}, nil
	}
	raw, err := json.Marshal(spec.InputSchema)
	if err != nil {
		return WireTool{}, err
	}
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		return WireTool{}, err
	}
	if d == DialectFull {
		return WireTool{Description: spec.Description, InputSchema: s}, nil
	}
	rules := Rules(spec.InputSchema)
	desc := spec.Description
	if len(rules) > 0 {
		words := make([]string, len(rules))
		for i, r := range rules {
			words[i] = r.Message
		}
		desc = strings.TrimRight(desc, ". ")
		if desc != "" {
			desc += ". "
		}
		desc += rulesPrefix + strings.Join(words, "; ") + "."
	}
	props, _ := s["properties"].(map[string]any)
	// Every property a rule names points at the rules, once (the rules themselves are
	// said once, in the tool's description).
	pointed := map[string]bool{}
	for _, r := range rules {
		for _, name := range r.Properties {
			p, ok := props[name].(map[string]any)
			if !ok || pointed[name] {
				continue
			}
			pointed[name] = true
			pd, _ := p["description"].(string)
			if pd != "" {
				pd += " "
			}
			p["description"] = pd + rulesPointer
		}
	}
	for _, p := range props {
		if pm, ok := p.(map[string]any); ok {
			trimEcho(pm)
		}
	}
	out := map[string]any{"type": "object", "properties": props}
	if props == nil {
		out["properties"] = map[string]any{}
	}
	if req, ok := s["required"]; ok {
		out["required"] = req
	}
	if defs, ok := s["$defs"]; ok {
		out["$defs"] = defs // what a $ref in a property points at (none in the corpus)
	}
	if d == DialectOpenAIStrict {
		if strict, ok := openAIStrict(out, len(rules) == 0); ok {
			return WireTool{Description: desc, InputSchema: strict, Strict: true}, nil
		}
	}
	return WireTool{Description: desc, InputSchema: out}, nil
}

// numberedID matches the pattern of a numbered id, PREFIX-<n>.
var numberedID = lazyregexp.New(`^\^([A-Za-z][A-Za-z0-9]*)-\[0-9\]\+\$$`)

// trimEcho drops from a property's description the parenthesised words its keywords
// already say: "(a|b|c)" when the enum (its items' for a list) is exactly a, b, c,
// "(PREFIX-<n>)" when the pattern is ^PREFIX-[0-9]+$, and "(integer >= N)" when minimum
// is N.
func trimEcho(p map[string]any) {
	desc, _ := p["description"].(string)
	if desc == "" {
		return
	}
	enum, _ := p["enum"].([]any)
	if items, ok := p["items"].(map[string]any); ok && enum == nil {
		enum, _ = items["enum"].([]any)
	}
	if len(enum) > 0 {
		words := make([]string, len(enum))
		for i, w := range enum {
			words[i] = fmt.Sprint(w)
		}
		desc = strings.Replace(desc, " ("+strings.Join(words, "|")+")", "", 1)
	}
	pattern, _ := p["pattern"].(string)
	if items, ok := p["items"].(map[string]any); ok && pattern == "" {
		pattern, _ = items["pattern"].(string)
	}
	if m := numberedID.FindStringSubmatch(pattern); m != nil {
		// "^WU-[0-9]+$" says what " (WU-<n>)" does.
		desc = strings.Replace(desc, " ("+m[1]+"-<n>)", "", 1)
		desc = strings.Replace(desc, " ("+m[1]+"-<n>, repeatable)", "", 1)
	}
	if p["type"] == "array" {
		desc = strings.Replace(desc, " (repeatable)", "", 1)
	}
	if m, ok := p["minimum"].(float64); ok {
		for _, kind := range []string{"integer", "number"} {
			desc = strings.Replace(desc, fmt.Sprintf(" (%s >= %v)", kind, m), "", 1)
		}
	}
	p["description"] = desc
}

// strictKeywords are the keywords OpenAI's strict mode accepts in a property
// (platform.openai.com/docs/guides/structured-outputs, "Supported schemas": string
// pattern and format; number multipleOf, maximum, exclusiveMaximum, minimum,
// exclusiveMinimum; array items, minItems, maxItems), besides type, description and
// enum. default is an annotation and is dropped without changing what is accepted.
var strictKeywords = map[string]bool{
	"type": true, "description": true, "enum": true, "pattern": true, "format": true,
	"multipleOf": true, "maximum": true, "exclusiveMaximum": true, "minimum": true,
	"exclusiveMinimum": true, "items": true, "minItems": true, "maxItems": true,
}

// openAIStrict turns the portable schema s into OpenAI's strict form. ok is false when
// that form cannot state s exactly: rules between properties (exact false), or a
// keyword strict mode does not support (minLength, maxLength, …).
func openAIStrict(s map[string]any, exact bool) (map[string]any, bool) {
	if _, defs := s["$defs"]; !exact || defs {
		return nil, false
	}
	props, _ := s["properties"].(map[string]any)
	required := map[string]bool{}
	if list, ok := s["required"].([]any); ok {
		for _, r := range list {
			required[fmt.Sprint(r)] = true
		}
	}
	names := make([]string, 0, len(props))
	out := map[string]any{}
	for name, p := range props {
		pm, ok := p.(map[string]any)
		if !ok || !strictProperty(pm) {
			return nil, false
		}
		q := map[string]any{}
		for k, v := range pm {
			if k != "default" {
				q[k] = v
			}
		}
		if !required[name] {
			t, ok := q["type"].(string)
			if !ok {
				return nil, false
			}
			q["type"] = []any{t, "null"}
			if enum, ok := q["enum"].([]any); ok {
				q["enum"] = append(slices.Clone(enum), nil)
			}
		}
		out[name] = q
		names = append(names, name)
	}
	slices.Sort(names)
	req := make([]any, len(names))
	for i, n := range names {
		req[i] = n
	}
	return map[string]any{"type": "object", "properties": out, "required": req, "additionalProperties": false}, true
}

func strictProperty(p map[string]any) bool {
	for k, v := range p {
		if k == "default" {
			continue
		}
		if !strictKeywords[k] {
			return false
		}
		if k == "items" {
			items, ok := v.(map[string]any)
			if !ok {
				return false
			}
			for ik := range items {
				if !strictKeywords[ik] || ik == "items" {
					return false
				}
			}
		}
	}
	return true
}

// DropNulls removes the top-level properties whose value is null from a call's input
// object: what a host sends for an optional property in OpenAI's strict form, meaning
// "not given". Anything that is not a JSON object is returned unchanged.
func DropNulls(input json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(input, &obj); err != nil || obj == nil {
		return input
	}
	changed := false
	for k, v := range obj {
		if string(v) == "null" {
			delete(obj, k)
			changed = true
		}
	}
	if !changed {
		return input
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return input
	}
	return out
}
