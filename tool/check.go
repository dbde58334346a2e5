package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"weak"

	"github.com/google/jsonschema-go/jsonschema"
)

// DecodeInput parses a call's input into generic JSON, as the kernel validates it, and
// its canonical form (sorted keys, compact). An absent input, or null, is the empty
// object. Input that is not one JSON value is refused (INVALID_INPUT).
func DecodeInput(raw json.RawMessage) (any, []byte, *Error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return map[string]any{}, []byte("{}"), nil
	}
	// Numbers are decoded exactly: an integer literal stays an int64 (a float64 would
	// round above 2^53 and misjudge valid int64 values), anything else is a float64.
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil && dec.InputOffset() != int64(len(raw)) {
		err = fmt.Errorf("invalid character after top-level value at offset %d", dec.InputOffset())
	}
	if err != nil {
		return nil, raw, RefuseDetails(CodeInvalidInput, map[string]any{"path": "/"}, "input is not JSON: %v", err)
	}
	v = exactNumbers(v)
	canonical, err := json.Marshal(v)
	if err != nil {
		return nil, raw, Refuse(CodeInvalidInput, "input: %v", err)
	}
	return v, canonical, nil
}

// exactNumbers replaces every json.Number in v: an integer that fits in an int64
// becomes an int64, any other number a float64.
func exactNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = exactNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = exactNumbers(e)
		}
	}
	return v
}

// CheckInput validates input (decoded as [DecodeInput] decodes it) against the spec's
// input schema: the one validation every lane's call goes through, in the kernel and in
// front of parity's lanes, so a handler may trust what its schema says. It returns nil
// when the input is valid, else refuses it (INVALID_INPUT) with details naming where
// (path, a JSON pointer) and why (reason). jsonschema-go decides validity; see [Checker.Check] for how
// the place is found. A spec without an input schema accepts any input.
func (s *Spec) CheckInput(input any) *Error {
	if s.InputSchema == nil {
		return nil
	}
	c, err := checkerOf(s.InputSchema)
	if err != nil {
		return Refuse(CodeInternal, "%s: input schema: %v", s.Name, err)
	}
	return c.Check(s.Name, input)
}

// Checker validates inputs against one input schema. It is safe for concurrent use.
type Checker struct {
	schema *jsonschema.Schema
	root   *jsonschema.Resolved
	// subs holds, per subschema, its own resolution (nil when it does not resolve on
	// its own, e.g. a reference into the root's definitions), made on first need.
	subs sync.Map // *jsonschema.Schema → *jsonschema.Resolved
}

// NewChecker resolves s for validation. The schema must not change afterwards.
func NewChecker(s *jsonschema.Schema) (*Checker, error) {
	root, err := s.Resolve(nil)
	if err != nil {
		return nil, err
	}
	return &Checker{schema: s, root: root}, nil
}

// checkers holds each input schema's Checker, keyed weakly: an entry goes when its
// schema does.
var checkers sync.Map // weak.Pointer[jsonschema.Schema] → *Checker

func checkerOf(s *jsonschema.Schema) (*Checker, error) {
	key := weak.Make(s)
	if c, ok := checkers.Load(key); ok {
		return c.(*Checker), nil
	}
	c, err := NewChecker(s)
	if err != nil {
		return nil, err
	}
	if _, loaded := checkers.LoadOrStore(key, c); !loaded {
		runtime.AddCleanup(s, func(k weak.Pointer[jsonschema.Schema]) { checkers.Delete(k) }, key)
	}
	return c, nil
}

// Check validates input; nil when valid. jsonschema-go decides. When it rejects the
// input, the refusal names the deepest place at fault: Check descends into the first
// property (in name order) or item whose own subschema jsonschema-go rejects; where no
// part is at fault the object itself is: a required property it lacks, then a property
// its schema does not allow, then (at the top) the first rule between properties it
// breaks (see [ApplyConstraints]: the rule's words are the message), else jsonschema-go's
// own reason.
func (c *Checker) Check(name string, input any) *Error {
	err := c.root.Validate(input)
	if err == nil {
		return nil
	}
	if _, isMap := input.(map[string]any); !isMap && c.schema.Type == "object" {
		// Said before any rule between properties, which a value that is not an
		// object meets vacuously.
		why := "the input is a JSON " + jsonKind(input) + ", not an object of the tool's properties"
		return RefuseDetails(CodeInvalidInput, map[string]any{"path": "/", "reason": why},
			"%s: invalid input at /: %s", name, why)
	}
	ptr, why := c.locate(c.schema, input, "", err)
	if ptr == "" {
		if out := ruleViolation(name, c.schema, input); out != nil {
			return out
		}
		ptr = "/"
	}
	return RefuseDetails(CodeInvalidInput, map[string]any{"path": ptr, "reason": why},
		"%s: invalid input at %s: %s", name, ptr, why)
}

// locate finds where v, rejected by s with err, is at fault (see Check): the pointer
// ("" for the top) and the reason.
func (c *Checker) locate(s *jsonschema.Schema, v any, ptr string, err error) (string, string) {
	switch x := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		for _, k := range keys {
			if ps := s.Properties[k]; ps != nil {
				if p, why, bad := c.part(ps, x[k], ptr+"/"+escape(k)); bad {
					return p, why
				}
			}
		}
		if object(s) {
			for _, req := range s.Required {
				if _, has := x[req]; !has {
					why := "required property is missing"
					for _, k := range keys { // a misspelling of it, given instead
						if _, declared := s.Properties[k]; !declared && Suggest(k, []string{req}) == req {
							why += fmt.Sprintf(" (%q given instead?)", k)
							break
						}
					}
					return ptr + "/" + escape(req), why
				}
			}
			for _, k := range keys {
				if _, declared := s.Properties[k]; !declared && isFalse(s.AdditionalProperties) {
					return ptr + "/" + escape(k), "unknown property" + DidYouMean(k, slices.Sorted(maps.Keys(s.Properties)))
				}
			}
		}
	case []any:
		if s.Items != nil {
			for i, e := range x {
				if p, why, bad := c.part(s.Items, e, ptr+"/"+strconv.Itoa(i)); bad {
					return p, why
				}
			}
		}
	}
	return ptr, reason(err)
}

// part validates v against the subschema s on its own and, when jsonschema-go rejects
// it, locates the fault inside it. bad is false when s accepts v, or when s cannot be
// validated on its own (the fault is then reported at the parent).
func (c *Checker) part(s *jsonschema.Schema, v any, ptr string) (string, string, bool) {
	r, ok := c.subs.Load(s)
	if !ok {
		res, err := s.Resolve(nil)
		if err != nil {
			res = nil
		}
		r, _ = c.subs.LoadOrStore(s, res)
	}
	res := r.(*jsonschema.Resolved)
	if res == nil {
		return "", "", false
	}
	err := res.Validate(v)
	if err == nil {
		return "", "", false
	}
	p, why := c.locate(s, v, ptr, err)
	return p, why, true
}

// object reports whether s allows an object (it declares no type, or "object").
func object(s *jsonschema.Schema) bool {
	return (s.Type == "" && len(s.Types) == 0) || s.Type == "object" || slices.Contains(s.Types, "object")
}

// reason is jsonschema-go's message without the "validating <schema>: " prefixes that
// name where in the schema it was (the refusal names where in the input instead).
func reason(err error) string {
	msg := err.Error()
	for strings.HasPrefix(msg, "validating ") {
		i := strings.Index(msg, ": ")
		if i < 0 {
			break
		}
		msg = msg[i+2:]
	}
	return msg
}

func isFalse(s *jsonschema.Schema) bool {
	// jsonschema-go spells "false" as {"not": {}}.
	return s != nil && s.Not != nil && reflect.DeepEqual(*s.Not, jsonschema.Schema{})
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
func ruleViolation(name string, s *jsonschema.Schema, input any) *Error {
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
		return RefuseDetails(CodeInvalidInput,
			map[string]any{"path": "/", "reason": why, "properties": ruleProperties(r.schema), "rule": rule},
			"%s: invalid input: %s", name, why)
	}
	return nil
}

// rule is one forbidden combination, resolved once for jsonschema-go (nil when it does
// not resolve: it never matches, and the full validation reports the schema).
type rule struct {
	schema   *jsonschema.Schema
	resolved *jsonschema.Resolved
}

func (r rule) matches(v any) bool { return r.resolved != nil && r.resolved.Validate(v) == nil }

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
		rules[i].schema = r
		rules[i].resolved, _ = r.Resolve(nil)
	}
	if _, loaded := ruleCache.LoadOrStore(key, rules); !loaded {
		runtime.AddCleanup(s, func(k weak.Pointer[jsonschema.Schema]) { ruleCache.Delete(k) }, key)
	}
	return rules
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
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			add(k)
		}
		for _, k := range slices.Sorted(maps.Keys(s.DependentRequired)) {
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
