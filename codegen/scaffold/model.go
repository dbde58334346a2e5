package scaffold

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Tool is everything the generator writes for one command: where, under which Go names,
// and the Input fields with the schema keywords their tags cannot carry.
type Tool struct {
	Loc Located
	// Command is the registry's view of the command.
	Command legacy.Command
	// Spec is the adapter's tool spec (the ground truth for schema and annotations).
	Spec tool.Spec
	// Native is where the tool registers; Legacy the registry variable the test looks
	// the command up in (zero: the test compares with the schema as scaffolded).
	Native target
	Legacy Qual
	// Local is the module path of the generated code: its imports are grouped last.
	Local string
	// Package is the nativetools domain package name and directory (nativetools/<Package>).
	Package string
	// Base is the file stem (status → status.go, status_test.go).
	Base string
	// TypeName is the exported Input struct's name (StatusInput); Handler the unexported
	// handler function (runStatus).
	TypeName, Handler string
	Fields            []Field
	// Constraints are the rules between properties (adapter.Constraints), which
	// AdjustSchema writes with tool.ApplyConstraints as the adapter does.
	Constraints []tool.Constraint
}

// target is the native registry generated tools register into: Register is a
// *native.Registry variable (IsVar: registered with Add) or a func(native.Tool); Lookup
// is the *native.Registry variable tests look tools up in.
type target struct {
	Register, Lookup Qual
	IsVar            bool
}

// Field is one Input struct field, one schema property.
type Field struct {
	Name     string // Go field name
	Prop     string // json name
	GoType   string // string, bool, int64, float64, []string, …
	Required bool
	// Tag is the jsonschema tag (the description), empty when the description must be set
	// by AdjustSchema instead (empty, or starting with WORD=, which the library rejects).
	Tag string
	// Adjust lists the keywords AdjustSchema sets on the property.
	Adjust []Keyword
}

// Keyword is one schema keyword AdjustSchema assigns: Path is the Go selector below the
// property schema (Default, Enum, Items.Minimum, …), Value the JSON the adapter has.
type Keyword struct {
	Path  string
	Value json.RawMessage
}

// handled are the keywords the generator knows how to reproduce, per schema level.
var (
	propKeywords = []string{"default", "enum", "minimum", "maximum", "exclusiveMinimum",
		"exclusiveMaximum", "minItems", "maxItems", "minLength", "maxLength", "pattern", "format"}
	goField = map[string]string{"default": "Default", "enum": "Enum", "minimum": "Minimum",
		"maximum": "Maximum", "exclusiveMinimum": "ExclusiveMinimum", "exclusiveMaximum": "ExclusiveMaximum",
		"minItems": "MinItems", "maxItems": "MaxItems", "minLength": "MinLength", "maxLength": "MaxLength",
		"pattern": "Pattern", "format": "Format", "description": "Description"}
	wordPrefix = regexp.MustCompile(`^[^ \t\n]*=`)
)

// naming derives the file stem, type and handler names of every located command. The
// file stem is tool.Stem(name), the path pattern every piece of a corpus tool follows
// (wu:status → wu_status). Type and handler names come from the part of the name after
// ':' ('-' → '_'); when two commands of one domain share it, a command whose prefix is
// not the domain keeps its prefix (initiative:create → CreateInput, plan:create →
// PlanCreateInput).
func naming(all []Located, caps initialisms) map[string][3]string {
	byDomainBase := map[string][]Located{}
	base := func(name string) string {
		_, after, ok := strings.Cut(name, ":")
		if !ok {
			after = name
		}
		return after
	}
	for _, l := range all {
		k := l.Domain + "\x00" + base(l.Name)
		byDomainBase[k] = append(byDomainBase[k], l)
	}
	out := map[string][3]string{}
	for _, l := range all {
		stem := base(l.Name)
		prefix, _, _ := strings.Cut(l.Name, ":")
		if len(byDomainBase[l.Domain+"\x00"+stem]) > 1 && prefix != l.Domain && strings.Contains(l.Name, ":") {
			stem = prefix + "-" + stem
		}
		words := strings.FieldsFunc(stem, func(r rune) bool { return r == '-' || r == '_' || r == ':' })
		camel := caps.camel(words)
		out[l.Name] = [3]string{tool.Stem(l.Name), camel + "Input", "run" + camel}
	}
	return out
}

// initialisms are the words written in capitals in Go names: Go's own (id, url, ttl,
// json, html, api, uuid) and the program's (Config.Initialisms).
type initialisms map[string]bool

// goInitialisms are the initialisms of every program.
var goInitialisms = []string{"id", "url", "ttl", "json", "html", "api", "uuid"}

// newInitialisms is Go's initialisms and the program's own, lower-cased.
func newInitialisms(own []string) initialisms {
	caps := initialisms{}
	for _, w := range append(slices.Clone(goInitialisms), own...) {
		caps[strings.ToLower(w)] = true
	}
	return caps
}

func (caps initialisms) camel(words []string) string {
	var b strings.Builder
	for _, w := range words {
		if w == "" {
			continue
		}
		if caps[w] {
			b.WriteString(strings.ToUpper(w))
			continue
		}
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	return b.String()
}

// packageName maps a command domain to a Go package name (lane-lock → lanelock).
func packageName(domain string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(domain) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// fields maps the adapter's input schema to Input fields, in property order.
func fields(name string, s *jsonschema.Schema, caps initialisms) ([]Field, error) {
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	order := s.PropertyOrder
	if len(order) != len(s.Properties) {
		order = order[:0:0]
		for p := range s.Properties {
			order = append(order, p)
		}
		sort.Strings(order)
	}
	taken := map[string]string{}
	var out []Field
	for _, prop := range order {
		ps := s.Properties[prop]
		f := Field{Prop: prop, Required: required[prop],
			Name: caps.camel(strings.FieldsFunc(prop, func(r rune) bool { return r == '_' || r == '-' }))}
		if f.Name == "" || !unicode.IsLetter([]rune(f.Name)[0]) {
			f.Name = "P" + f.Name
		}
		if other, dup := taken[f.Name]; dup {
			return nil, fmt.Errorf("%s: properties %q and %q both map to field %s", name, other, prop, f.Name)
		}
		taken[f.Name] = prop
		var err error
		if f.GoType, err = goType(ps); err != nil {
			return nil, fmt.Errorf("%s: property %q: %w", name, prop, err)
		}
		if f.Adjust, err = keywords(ps, ""); err != nil {
			return nil, fmt.Errorf("%s: property %q: %w", name, prop, err)
		}
		if d := ps.Description; d != "" {
			if wordPrefix.MatchString(d) {
				raw, _ := json.Marshal(d)
				f.Adjust = append([]Keyword{{Path: "Description", Value: raw}}, f.Adjust...)
			} else {
				f.Tag = d
			}
		}
		out = append(out, f)
	}
	return out, nil
}

func goType(s *jsonschema.Schema) (string, error) {
	switch s.Type {
	case "string":
		return "string", nil
	case "boolean":
		return "bool", nil
	case "integer":
		return "int64", nil
	case "number":
		return "float64", nil
	case "array":
		if s.Items == nil {
			return "", fmt.Errorf("array without items")
		}
		if s.Items.Type == "array" {
			return "", fmt.Errorf("nested arrays are not flag values")
		}
		item, err := goType(s.Items)
		return "[]" + item, err
	}
	return "", fmt.Errorf("unsupported type %q", s.Type)
}

// keywords lists the keywords of s beyond what jsonschema.For infers from a field (type,
// the tag's description, items' type). Any keyword the generator cannot reproduce is an
// error, so a generated schema never silently differs from the adapter's.
func keywords(s *jsonschema.Schema, prefix string) ([]Keyword, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	var out []Keyword
	for _, k := range propKeywords {
		if v, ok := m[k]; ok {
			out = append(out, Keyword{Path: prefix + goField[k], Value: v})
			delete(m, k)
		}
	}
	delete(m, "type")
	if prefix == "" {
		delete(m, "description")
	}
	if items, ok := m["items"]; ok && prefix == "" {
		delete(m, "items")
		var is jsonschema.Schema
		if err := json.Unmarshal(items, &is); err != nil {
			return nil, err
		}
		sub, err := keywords(&is, "Items.")
		if err != nil {
			return nil, err
		}
		out = append(out, sub...)
	}
	for k := range m {
		return nil, fmt.Errorf("keyword %q is not reproducible by the scaffold", k)
	}
	return out, nil
}
