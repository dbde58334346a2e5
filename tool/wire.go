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
	// between properties (the full schema's top-level "not") are stated in words at the
	// end of the tool's description; the kernel still enforces them, and still refuses
	// unknown properties. Words of a property's description that its keywords or its
	// name already say are left out.
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
		words := ruleWords(rules)
		desc = strings.TrimRight(desc, ". ")
		if desc != "" {
			desc += ". "
		}
		desc += rulesPrefix + strings.Join(words, "; ") + "."
	}
	props, _ := s["properties"].(map[string]any)
	for _, p := range props {
		if pm, ok := p.(map[string]any); ok {
			trimEcho(pm)
		}
	}
	for name, p := range props {
		if pm, ok := p.(map[string]any); ok {
			dropNameEcho(name, pm)
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

// The patterns of a duration (30m, 7d) and of a date (YYYY-MM-DD), as the schema
// builders write them.
const (
	durationPattern = `^([0-9]+)([smhdw])$`
	datePattern     = `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
)

// parenthesised matches a parenthesised group of a description and the space before it.
var parenthesised = lazyregexp.New(` \(([^()]*)\)`)

// trimEcho drops from a property's description the parenthesised words its keywords
// already say. A group is split at "; " and ", ", and each part its keywords say goes:
// "a|b|c" next to that enum (its items' for a list), "PREFIX-<n>" next to the pattern
// ^PREFIX-[0-9]+$, "repeatable" on a list, "integer >= N" next to minimum N, "integer
// from N to M" next to minimum N and maximum M, "N to M characters" next to those
// lengths, "YYYY-MM-DD" and "e.g. 30m, 24h, 7d" next to the date and duration patterns,
// "default V" next to default V. A group left empty goes with the space before it.
func trimEcho(p map[string]any) {
	desc, _ := p["description"].(string)
	if desc == "" {
		return
	}
	said := echoes(p)
	desc = parenthesised.ReplaceAllStringFunc(desc, func(group string) string {
		inner := strings.TrimSuffix(strings.TrimPrefix(group, " ("), ")")
		if said[inner] {
			return ""
		}
		var kept []string
		for _, part := range strings.Split(inner, "; ") {
			var words []string
			for _, w := range strings.Split(part, ", ") {
				if !said[w] {
					words = append(words, w)
				}
			}
			if len(words) > 0 {
				kept = append(kept, strings.Join(words, ", "))
			}
		}
		if len(kept) == 0 {
			return ""
		}
		return " (" + strings.Join(kept, "; ") + ")"
	})
	p["description"] = desc
}

// echoes are the words p's keywords say (see trimEcho).
func echoes(p map[string]any) map[string]bool {
	said := map[string]bool{}
	item, _ := p["items"].(map[string]any)
	keyword := func(k string) any {
		if v, ok := p[k]; ok || item == nil {
			return v
		}
		return item[k]
	}
	if enum, _ := keyword("enum").([]any); len(enum) > 0 {
		words := make([]string, len(enum))
		for i, w := range enum {
			words[i] = fmt.Sprint(w)
		}
		said[strings.Join(words, "|")] = true
	}
	pattern, _ := keyword("pattern").(string)
	if m := numberedID.FindStringSubmatch(pattern); m != nil {
		said[m[1]+"-<n>"] = true // "^WU-[0-9]+$" says what "WU-<n>" does
	}
	switch pattern {
	case durationPattern:
		said["e.g. 30m, 24h, 7d"] = true
	case datePattern:
		said["YYYY-MM-DD"] = true
	}
	if p["type"] == "array" {
		said["repeatable"] = true
	}
	kind, _ := p["type"].(string)
	lo, hasLo := p["minimum"].(float64)
	hi, hasHi := p["maximum"].(float64)
	if hasLo {
		said[fmt.Sprintf("%s >= %v", kind, lo)] = true
	}
	if hasLo && hasHi {
		said[fmt.Sprintf("%s from %v to %v", kind, lo, hi)] = true
	}
	if lo, ok := p["minLength"].(float64); ok {
		if hi, ok := p["maxLength"].(float64); ok {
			said[fmt.Sprintf("%v to %v characters", lo, hi)] = true
		}
	}
	if d, ok := p["default"]; ok {
		said[fmt.Sprintf("default %v", d)] = true
		said[fmt.Sprintf("default: %v", d)] = true
	}
	return said
}

// stopWords are the words a description may add to its property's name and still say
// nothing more.
var stopWords = map[string]bool{"a": true, "an": true, "the": true, "this": true, "its": true, "of": true}

// dropNameEcho drops the description of property name when it says nothing its name
// does not ("tag" of tag, "the work unit" of wu is not dropped: "work" and "unit" are
// not in "wu").
func dropNameEcho(name string, p map[string]any) {
	desc, _ := p["description"].(string)
	if desc == "" {
		return
	}
	parts := map[string]bool{}
	for _, w := range strings.Split(strings.ToLower(name), "_") {
		parts[w] = true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(desc), func(r rune) bool { return r == ' ' || r == '_' }) {
		if !parts[w] && !stopWords[w] {
			return
		}
	}
	delete(p, "description")
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
