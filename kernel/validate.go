package kernel

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"weak"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/tool"
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

// ruleViolation checks the input against the rules between properties that s forbids
// in its top-level "not" (tool.ApplyConstraints writes them there: one schema per rule,
// matching exactly the inputs that break it, described in plain words). The first rule
// the input breaks is INVALID_INPUT whose message is the rule's description ("one of
// wu, initiative is required") and whose details hold the rule: its description
// (reason), the properties it names and its schema (rule). nil when no rule is broken.
func ruleViolation(name string, s *jsonschema.Schema, input any) *tool.Output {
	if s == nil || s.Not == nil {
		return nil
	}
	for _, r := range rulesOf(s) {
		if !r.matches(input) {
			continue
		}
		why := r.schema.Description
		if why == "" {
			why = "the input matches a combination the tool forbids"
		}
		var rule any
		if raw, err := json.Marshal(r.schema); err == nil {
			_ = json.Unmarshal(raw, &rule)
		}
		out := tool.FailDetails(tool.CodeInvalidInput,
			map[string]any{"path": "/", "reason": why, "properties": ruleProperties(r.schema), "rule": rule},
			"%s: invalid input: %s", name, why)
		return &out
	}
	return nil
}

// rule is one forbidden combination, ready to test: rules written by
// tool.ApplyConstraints use a few keywords and are evaluated directly; any other is
// resolved once and validated by jsonschema-go (resolving per call would cost hundreds
// of microseconds).
type rule struct {
	schema   *jsonschema.Schema
	simple   bool
	resolved *jsonschema.Resolved // nil for a simple rule, or when it does not resolve
}

func (r rule) matches(v any) bool {
	if r.simple {
		return eval(r.schema, v)
	}
	// A rule that does not resolve never matches here; the full validation that
	// follows reports it.
	return r.resolved != nil && r.resolved.Validate(v) == nil
}

// ruleCache holds each input schema's rules, keyed weakly: an entry goes when its
// schema does (a kernel rebuilt leaves nothing behind).
var ruleCache sync.Map // weak.Pointer[jsonschema.Schema] → []rule

func rulesOf(s *jsonschema.Schema) []rule {
	key := weak.Make(s)
	if c, ok := ruleCache.Load(key); ok {
		return c.([]rule)
	}
	list := s.Not.AnyOf
	if len(list) == 0 {
		list = []*jsonschema.Schema{s.Not}
	}
	rules := make([]rule, len(list))
	for i, r := range list {
		rules[i] = rule{schema: r, simple: simple(r)}
		if !rules[i].simple {
			rules[i].resolved, _ = r.Resolve(nil)
		}
	}
	if _, loaded := ruleCache.LoadOrStore(key, rules); !loaded {
		runtime.AddCleanup(s, func(k weak.Pointer[jsonschema.Schema]) { ruleCache.Delete(k) }, key)
	}
	return rules
}

// simple reports whether s uses only required, properties, const, enum, minItems, not,
// anyOf, allOf and annotations, at every depth: what [eval] knows.
func simple(s *jsonschema.Schema) bool {
	if s == nil {
		return true
	}
	rest := *s
	rest.Required, rest.Properties, rest.Const, rest.Enum, rest.MinItems = nil, nil, nil, nil, nil
	rest.Not, rest.AnyOf, rest.AllOf, rest.Description, rest.Title = nil, nil, nil, "", ""
	if !reflect.DeepEqual(rest, jsonschema.Schema{}) {
		return false
	}
	for _, p := range s.Properties {
		if !simple(p) {
			return false
		}
	}
	for _, x := range append(append([]*jsonschema.Schema{s.Not}, s.AnyOf...), s.AllOf...) {
		if !simple(x) {
			return false
		}
	}
	return true
}

// eval evaluates a [simple] schema on v, as JSON Schema 2020-12 does.
func eval(s *jsonschema.Schema, v any) bool {
	if s == nil {
		return true
	}
	if obj, isObj := v.(map[string]any); isObj {
		for _, k := range s.Required {
			if _, has := obj[k]; !has {
				return false
			}
		}
		for k, ps := range s.Properties {
			if pv, has := obj[k]; has && !eval(ps, pv) {
				return false
			}
		}
	}
	if s.Const != nil && !jsonSame(v, *s.Const) {
		return false
	}
	if len(s.Enum) > 0 {
		in := false
		for _, e := range s.Enum {
			in = in || jsonSame(v, e)
		}
		if !in {
			return false
		}
	}
	if list, isList := v.([]any); isList && s.MinItems != nil && len(list) < *s.MinItems {
		return false
	}
	if s.Not != nil && eval(s.Not, v) {
		return false
	}
	if len(s.AnyOf) > 0 {
		some := false
		for _, x := range s.AnyOf {
			some = some || eval(x, v)
		}
		if !some {
			return false
		}
	}
	for _, x := range s.AllOf {
		if !eval(x, v) {
			return false
		}
	}
	return true
}

// jsonSame compares two values as JSON (a decoded input against a declared value).
func jsonSame(a, b any) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// ruleProperties lists the properties a rule schema names (in "required" and
// "properties", at any depth), in the order they first appear.
func ruleProperties(r *jsonschema.Schema) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	var walk func(*jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil {
			return
		}
		for _, p := range s.Required {
			add(p)
		}
		keys := make([]string, 0, len(s.Properties))
		for k := range s.Properties {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			add(k)
		}
		deps := make([]string, 0, len(s.DependentRequired))
		for k := range s.DependentRequired {
			deps = append(deps, k)
		}
		sort.Strings(deps)
		for _, k := range deps {
			add(k)
			for _, d := range s.DependentRequired[k] {
				add(d)
			}
		}
		walk(s.Not)
		for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf} {
			for _, x := range list {
				walk(x)
			}
		}
		walk(s.If)
		walk(s.Then)
		walk(s.Else)
	}
	walk(r)
	return out
}

var (
	usageFlag     = regexp.MustCompile(`(^|[^\w-])--([A-Za-z0-9][A-Za-z0-9-]*)`)
	usageArgument = regexp.MustCompile(`\b(argument|for) ([A-Z][A-Z0-9_]*)\b`)
	usageRewrites = []struct {
		re   *regexp.Regexp
		with string
	}{
		{regexp.MustCompile(`^missing required (?:flag|argument) (\w+)$`), "$1 is required"},
		{regexp.MustCompile(`^flags (\w+) and (\w+) cannot be used together$`), "$1 and $2 cannot be given together"},
		{regexp.MustCompile(`^flag (\w+) requires (\w+)$`), "$1 requires $2"},
	}
)

// speakUsage words a lane's USAGE answer in the tool's terms. USAGE is the command's own
// argument check (spec §2.3, exit 2): it names flags and positionals ("missing required
// argument ID", "invalid value \"x\" for --wu: …"). Every flag or positional that is an
// input property is renamed to the property ("id is required", "invalid value \"x\" for
// wu: …"); the command's words stay in details.cli_message. Other outputs pass unchanged.
func speakUsage(s *jsonschema.Schema, out tool.Output) tool.Output {
	if out.Error == nil || out.Error.Code != tool.CodeUsage || s == nil {
		return out
	}
	prop := func(name string) (string, bool) {
		p := tool.PropertyName(strings.ToLower(name))
		_, ok := s.Properties[p]
		return p, ok
	}
	msg := usageFlag.ReplaceAllStringFunc(out.Error.Message, func(m string) string {
		sub := usageFlag.FindStringSubmatch(m)
		if p, ok := prop(sub[2]); ok {
			return sub[1] + p
		}
		return m
	})
	msg = usageArgument.ReplaceAllStringFunc(msg, func(m string) string {
		sub := usageArgument.FindStringSubmatch(m)
		if p, ok := prop(sub[2]); ok {
			return sub[1] + " " + p
		}
		return m
	})
	for _, r := range usageRewrites {
		if sub := r.re.FindStringSubmatch(msg); sub != nil {
			all := true
			for _, name := range sub[1:] {
				_, ok := s.Properties[name]
				all = all && ok
			}
			if all {
				msg = r.re.ReplaceAllString(msg, r.with)
			}
		}
	}
	if msg == out.Error.Message {
		return out
	}
	details := map[string]any{}
	switch d := out.Error.Details.(type) {
	case nil:
	case map[string]any:
		for k, v := range d {
			details[k] = v
		}
	default:
		return out // details the kernel cannot extend: keep the command's words
	}
	details["cli_message"] = out.Error.Message
	e := *out.Error
	e.Message, e.Details = msg, details
	out.Error = &e
	return out
}
