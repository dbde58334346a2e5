package tool

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// ConstraintKind names a rule between input properties.
type ConstraintKind string

// Constraint kinds. A property is "given" when the argv builder passes it on: present,
// not null, not false, not an empty list (corpus §2.6; the same test as [IsSet]).
const (
	// Required: the one property must be given (a flag-or-positional the command
	// insists on). It goes into the schema's "required"; a list also gets minItems 1.
	Required ConstraintKind = "required"
	// AnyOf: at least one of the properties must be given.
	AnyOf ConstraintKind = "any_of"
	// Exclusive: no two of the properties may be given together.
	Exclusive ConstraintKind = "exclusive"
	// Requires: when Properties[0] is given (and, with Values, equals one of them),
	// Properties[1] must be given too.
	Requires ConstraintKind = "requires"
	// Together: the properties are given all together or not at all.
	Together ConstraintKind = "together"
)

// Constraint is a rule the tool enforces between its input properties ("one of wu,
// initiative is required"). [ApplyConstraints] writes it into the input schema, so the
// kernel rejects a call that breaks it before anything runs; hosts are sent it in words
// ([Wire]).
type Constraint struct {
	Kind       ConstraintKind `json:"kind"`
	Properties []string       `json:"properties"`
	// Values restricts a Requires rule to these values of Properties[0].
	Values []any `json:"values,omitempty"`
}

// Message is the rule in plain words, naming properties: "one of wu, initiative is
// required", "id and lane must be given together".
func (c Constraint) Message() string {
	p := c.Properties
	switch c.Kind {
	case Required:
		return p[0] + " is required"
	case AnyOf:
		if len(p) == 1 {
			return p[0] + " is required"
		}
		return "one of " + strings.Join(p, ", ") + " is required"
	case Exclusive:
		if len(p) == 2 {
			return p[0] + " and " + p[1] + " cannot be given together"
		}
		return "at most one of " + strings.Join(p, ", ") + " may be given"
	case Requires:
		if len(c.Values) > 0 {
			words := make([]string, len(c.Values))
			for i, v := range c.Values {
				words[i] = fmt.Sprint(v)
			}
			return p[1] + " is required when " + p[0] + " is " + strings.Join(words, " or ")
		}
		return p[0] + " requires " + p[1]
	case Together:
		return andList(p) + " must be given together"
	}
	return string(c.Kind) + " " + strings.Join(p, ", ")
}

func andList(p []string) string {
	if len(p) <= 2 {
		return strings.Join(p, " and ")
	}
	return strings.Join(p[:len(p)-1], ", ") + " and " + p[len(p)-1]
}

// ApplyConstraints writes cs into the object schema s. Required rules go into
// "required". Every other rule becomes one schema that matches exactly the inputs
// breaking it, described by the rule's [Constraint.Message]; these are listed under the
// top-level "not": {"anyOf": [...]}, so an input is valid only when it breaks none.
// Hosts refuse composition keywords at the top level (OpenAI any of them), so [Wire]
// sends them this schema without the "not" and the messages in the description. Every
// property a rule names must be in s.Properties. Applying the same rules to two equal
// schemas gives equal schemas, which is how native tools keep the adapter's schema.
func ApplyConstraints(s *jsonschema.Schema, cs ...Constraint) error {
	for _, c := range cs {
		if err := c.check(s); err != nil {
			return err
		}
		if c.Kind == Required {
			name := c.Properties[0]
			if !contains(s.Required, name) {
				s.Required = append(s.Required, name)
			}
			if p := s.Properties[name]; p.Type == "array" && p.MinItems == nil {
				p.MinItems = jsonschema.Ptr(1)
			}
			continue
		}
		v := c.violation(s)
		v.Description = c.Message()
		if s.Not == nil {
			s.Not = &jsonschema.Schema{}
		}
		s.Not.AnyOf = append(s.Not.AnyOf, v)
	}
	return nil
}

func (c Constraint) check(s *jsonschema.Schema) error {
	want := map[ConstraintKind]int{Required: 1, AnyOf: 1, Exclusive: 2, Requires: 2, Together: 2}
	n, ok := want[c.Kind]
	switch {
	case !ok:
		return fmt.Errorf("constraint kind %q is not one of required, any_of, exclusive, requires, together", c.Kind)
	case len(c.Properties) < n || (c.Kind == Required || c.Kind == Requires) && len(c.Properties) != n:
		return fmt.Errorf("constraint %s %v: wrong number of properties", c.Kind, c.Properties)
	case len(c.Values) > 0 && c.Kind != Requires:
		return fmt.Errorf("constraint %s %v: only requires takes values", c.Kind, c.Properties)
	}
	seen := map[string]bool{}
	for _, p := range c.Properties {
		if s == nil || s.Properties[p] == nil {
			return fmt.Errorf("constraint %s: %q is not an input property", c.Kind, p)
		}
		if seen[p] {
			return fmt.Errorf("constraint %s: %q is named twice", c.Kind, p)
		}
		seen[p] = true
	}
	return nil
}

// given is the schema of "property p is given" (see the kinds); with values, "p is
// given and equals one of values".
func given(s *jsonschema.Schema, p string, values []any) *jsonschema.Schema {
	out := &jsonschema.Schema{Required: []string{p}}
	var ps *jsonschema.Schema
	switch {
	case len(values) > 0:
		ps = &jsonschema.Schema{Enum: values}
	case s.Properties[p].Type == "boolean":
		ps = &jsonschema.Schema{Const: jsonschema.Ptr[any](true)}
	case s.Properties[p].Type == "array":
		ps = &jsonschema.Schema{MinItems: jsonschema.Ptr(1)}
	}
	if ps != nil {
		out.Properties = map[string]*jsonschema.Schema{p: ps}
	}
	return out
}

// both merges two "given" schemas (they name different properties) into one that
// matches when both match.
func both(a, b *jsonschema.Schema) *jsonschema.Schema {
	out := &jsonschema.Schema{Required: append(append([]string{}, a.Required...), b.Required...)}
	for _, x := range []*jsonschema.Schema{a, b} {
		for k, v := range x.Properties {
			if out.Properties == nil {
				out.Properties = map[string]*jsonschema.Schema{}
			}
			out.Properties[k] = v
		}
	}
	return out
}

// violation is the schema matching exactly the inputs that break c.
func (c Constraint) violation(s *jsonschema.Schema) *jsonschema.Schema {
	p := c.Properties
	switch c.Kind {
	case AnyOf:
		alts := make([]*jsonschema.Schema, len(p))
		for i, name := range p {
			alts[i] = given(s, name, nil)
		}
		if len(alts) == 1 {
			return &jsonschema.Schema{Not: alts[0]}
		}
		return &jsonschema.Schema{Not: &jsonschema.Schema{AnyOf: alts}}
	case Exclusive:
		var pairs []*jsonschema.Schema
		for i := range p {
			for j := i + 1; j < len(p); j++ {
				pairs = append(pairs, both(given(s, p[i], nil), given(s, p[j], nil)))
			}
		}
		if len(pairs) == 1 {
			return pairs[0]
		}
		return &jsonschema.Schema{AnyOf: pairs}
	case Requires:
		v := given(s, p[0], c.Values)
		v.Not = given(s, p[1], nil)
		return v
	case Together:
		// Broken when one is given and another is not.
		var cases []*jsonschema.Schema
		for i := range p {
			for j := range p {
				if i != j {
					v := given(s, p[i], nil)
					v.Not = given(s, p[j], nil)
					cases = append(cases, v)
				}
			}
		}
		return &jsonschema.Schema{AnyOf: cases}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ParseConstraints decodes constraints from a value declared in code or JSON:
// []Constraint, or a JSON-shaped []any of {"kind", "properties", "values"} objects.
func ParseConstraints(v any) ([]Constraint, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []Constraint:
		return x, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out []Constraint
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("constraints must be a list of {kind, properties, values}: %w", err)
	}
	return out, nil
}
