package adapter

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/tool"
)

// kind is the JSON type of one input value (or of a slice's elements).
type kind int

const (
	kString kind = iota
	kBool
	kInt
	kUint
	kFloat
)

// role says where a parameter goes in argv.
type role int

const (
	asFlag role = iota
	asPositional
	asPassthrough
)

// param is one input property: a flag, a positional or the passthrough list. The schema
// and the argv builder both come from the same []param, so they cannot disagree.
type param struct {
	prop     string
	flag     string // long flag name, for asFlag
	kind     kind
	list     bool
	role     role
	required bool
	schema   *jsonschema.Schema
}

// skipped flags are never inputs: help and version are not tool behaviour, and json is
// always passed by the bridge (spec 2.6).
var skipped = map[string]bool{"help": true, "version": true, "json": true, "generate-bash-completion": true}

// params reads a pristine app's flag table and ArgsUsage.
func params(app *cli.App) ([]param, error) {
	var out []param
	byProp := map[string]bool{}
	for _, f := range app.Flags {
		names := f.Names()
		if len(names) == 0 || skipped[names[0]] {
			continue
		}
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue
		}
		p, err := flagParam(f)
		if err != nil {
			return nil, fmt.Errorf("flag --%s: %w", names[0], err)
		}
		p.flag, p.prop, p.role = names[0], tool.PropertyName(names[0]), asFlag
		if byProp[p.prop] {
			return nil, fmt.Errorf("flag --%s: property %q is taken twice", names[0], p.prop)
		}
		byProp[p.prop] = true
		if r, ok := f.(cli.RequiredFlag); ok && r.IsRequired() {
			p.required = true
		}
		if d, ok := f.(cli.DocGenerationFlag); ok && d.GetUsage() != "" {
			p.schema.Description = unquotePlaceholder(d.GetUsage())
		}
		out = append(out, p)
	}
	pos, err := positionals(app.ArgsUsage)
	if err != nil {
		return nil, fmt.Errorf("ArgsUsage %q: %w", app.ArgsUsage, err)
	}
	for _, p := range pos {
		if byProp[p.prop] {
			continue // the flag of the same name is the input; the positional stays unused
		}
		byProp[p.prop] = true
		out = append(out, p)
	}
	return out, nil
}

// positional tokens: <NAME>, [<NAME>], <NAME>..., [<NAME>...]; the angle brackets may be
// left out (NAME, [NAME...]), as urfave/cli help texts often do.
var positionalToken = regexp.MustCompile(`^(\[)?(?:<([A-Za-z][A-Za-z0-9_-]*)>|([A-Za-z][A-Za-z0-9_-]*))(\.\.\.)?(\])?$`)

// normaliseUsage rewrites an optional passthrough written as "[-- NAME...]" to the
// canonical "-- [NAME...]".
func normaliseUsage(tokens []string) []string {
	for i, tok := range tokens {
		if tok == "[--" && i == len(tokens)-2 && strings.HasSuffix(tokens[i+1], "]") && !strings.HasPrefix(tokens[i+1], "[") {
			return append(append([]string{}, tokens[:i]...), "--", "["+tokens[i+1])
		}
	}
	return tokens
}

func positionals(usage string) ([]param, error) {
	var out []param
	passthrough, sawOptional, sawList := false, false, false
	tokens := normaliseUsage(strings.Fields(usage))
	for i, tok := range tokens {
		if tok == "--" {
			if passthrough || i == len(tokens)-1 {
				return nil, fmt.Errorf(`"--" must be followed by exactly one <NAME>... token`)
			}
			passthrough = true
			continue
		}
		m := positionalToken.FindStringSubmatch(tok)
		if m == nil || (m[1] == "[") != (m[5] == "]") {
			return nil, fmt.Errorf("token %q is not <NAME>, [<NAME>], <NAME>... or [<NAME>...]", tok)
		}
		name := m[2] + m[3] // one of the two is empty
		optional, list := m[1] == "[", m[4] == "..."
		p := param{prop: tool.PropertyName(strings.ToLower(name)), kind: kString, list: list, required: !optional, role: asPositional}
		if passthrough {
			if !list || i != len(tokens)-1 {
				return nil, fmt.Errorf(`"--" must be followed by exactly one <NAME>... token`)
			}
			p.role = asPassthrough
		} else {
			if sawList {
				return nil, fmt.Errorf("token %q follows a list: only the last positional may be one", tok)
			}
			if sawOptional && !optional {
				return nil, fmt.Errorf("required token %q follows an optional one", tok)
			}
			sawOptional, sawList = sawOptional || optional, list
		}
		// A positional's description comes from MetaArgDescriptions (see Schema):
		// ArgsUsage only names it.
		p.schema = &jsonschema.Schema{Type: "string"}
		if list {
			p.schema = &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"}}
			if !optional {
				p.schema.MinItems = jsonschema.Ptr(1)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// flagParam maps one urfave/cli v2 flag type to its JSON type, schema and default.
func flagParam(f cli.Flag) (param, error) {
	scalar := func(k kind, def any) param {
		s := &jsonschema.Schema{Type: jsonType(k)}
		if k == kUint {
			s.Minimum = jsonschema.Ptr(0.0)
		}
		s.Default = defaultJSON(def)
		return param{kind: k, schema: s}
	}
	list := func(k kind, def any) param {
		item := &jsonschema.Schema{Type: jsonType(k)}
		if k == kUint {
			item.Minimum = jsonschema.Ptr(0.0)
		}
		return param{kind: k, list: true, schema: &jsonschema.Schema{Type: "array", Items: item, Default: defaultJSON(def)}}
	}
	switch f := f.(type) {
	case *cli.StringFlag:
		return scalar(kString, f.Value), nil
	case *cli.PathFlag:
		return scalar(kString, f.Value), nil
	case *cli.BoolFlag:
		return scalar(kBool, f.Value), nil
	case *cli.IntFlag:
		return scalar(kInt, f.Value), nil
	case *cli.Int64Flag:
		return scalar(kInt, f.Value), nil
	case *cli.UintFlag:
		return scalar(kUint, f.Value), nil
	case *cli.Uint64Flag:
		return scalar(kUint, f.Value), nil
	case *cli.Float64Flag:
		return scalar(kFloat, f.Value), nil
	case *cli.DurationFlag:
		var def any
		if f.Value != 0 {
			def = f.Value.String()
		}
		return scalar(kString, def), nil
	case *cli.TimestampFlag:
		p := scalar(kString, nil)
		if f.Value != nil && f.Value.Value() != nil {
			p.schema.Default = defaultJSON(f.Value.Value().Format(f.Layout))
		}
		return p, nil
	case *cli.GenericFlag:
		p := scalar(kString, nil)
		if f.Value != nil {
			p.schema.Default = defaultJSON(f.Value.String())
			if c, ok := f.Value.(commands.Choices); ok {
				for _, w := range c.Choices() {
					p.schema.Enum = append(p.schema.Enum, w)
				}
			}
		}
		return p, nil
	case *cli.StringSliceFlag:
		var def []string
		if f.Value != nil {
			def = f.Value.Value()
		}
		return list(kString, def), nil
	case *cli.IntSliceFlag:
		var def []int
		if f.Value != nil {
			def = f.Value.Value()
		}
		return list(kInt, def), nil
	case *cli.Int64SliceFlag:
		var def []int64
		if f.Value != nil {
			def = f.Value.Value()
		}
		return list(kInt, def), nil
	case *cli.Float64SliceFlag:
		var def []float64
		if f.Value != nil {
			def = f.Value.Value()
		}
		return list(kFloat, def), nil
	case *cli.UintSliceFlag:
		var def []uint
		if f.Value != nil {
			def = f.Value.Value()
		}
		return list(kUint, def), nil
	case *cli.Uint64SliceFlag:
		var def []uint64
		if f.Value != nil {
			def = f.Value.Value()
		}
		return list(kUint, def), nil
	}
	return param{}, fmt.Errorf("unsupported flag type %T", f)
}

func jsonType(k kind) string {
	switch k {
	case kBool:
		return "boolean"
	case kInt, kUint:
		return "integer"
	case kFloat:
		return "number"
	}
	return "string"
}

// defaultJSON encodes a pristine flag's default, or nil for a zero value (which the
// command would use anyway).
func defaultJSON(v any) json.RawMessage {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		if x == "" {
			return nil
		}
	case bool:
		if !x {
			return nil
		}
	case int, int64, uint, uint64, float64:
		if fmt.Sprint(x) == "0" {
			return nil
		}
	}
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" || string(b) == "[]" {
		return nil
	}
	return b
}

// Schema derives c's tool input schema from a pristine app (c.New()): a JSON Schema
// 2020-12 object with additionalProperties false, one property per visible flag (help,
// version and json excluded) and per positional of App.ArgsUsage, in table order.
//
// Positionals come from App.ArgsUsage, a space-separated list of tokens: <NAME> (a
// required string), [<NAME>] (optional), <NAME>... or [<NAME>...] (an array; only the
// last positional), and "-- <NAME>..." or "[-- NAME...]" for a passthrough array placed
// after "--" in argv. Angle brackets may be left out. Each becomes the property
// lower(NAME) with "-" as "_"; when a flag already maps to that property, the flag wins.
// An app without ArgsUsage takes no positionals.
//
// Descriptions speak tool, not CLI: a flag's is its Usage, a positional's its entry in
// the app's commands.MetaArgDescriptions (none otherwise), and in both flag syntax,
// positional placeholders and urfave/cli's backtick placeholder are rewritten into
// property names (see [vocabulary.speak]). The rules of commands.MetaConstraints are
// written in with [tool.ApplyConstraints], their names (flags or positionals) mapped to
// properties; a rule naming no input is an error.
func Schema(c commands.Command) (*jsonschema.Schema, error) {
	app := c.New()
	ps, err := params(app)
	if err != nil {
		return nil, fmt.Errorf("command %s: %w", c.Name, err)
	}
	voc := newVocabulary(app, ps)
	argDescriptions, err := stringMap(app.Metadata[commands.MetaArgDescriptions])
	if err != nil {
		return nil, fmt.Errorf("command %s: metadata %s: %w", c.Name, commands.MetaArgDescriptions, err)
	}
	for _, p := range ps {
		if p.role != asFlag {
			for name, d := range argDescriptions {
				if tool.PropertyName(strings.ToLower(name)) == p.prop {
					p.schema.Description = d
				}
			}
		}
		p.schema.Description = voc.speak(p.schema.Description)
	}
	s := &jsonschema.Schema{
		Schema:               "https://json-schema.org/draft/2020-12/schema",
		Type:                 "object",
		Properties:           make(map[string]*jsonschema.Schema, len(ps)),
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	for _, p := range ps {
		s.Properties[p.prop] = p.schema
		s.PropertyOrder = append(s.PropertyOrder, p.prop)
		if p.required {
			s.Required = append(s.Required, p.prop)
		}
	}
	cs, err := constraints(app, voc)
	if err != nil {
		return nil, fmt.Errorf("command %s: metadata %s: %w", c.Name, commands.MetaConstraints, err)
	}
	if err := tool.ApplyConstraints(s, cs...); err != nil {
		return nil, fmt.Errorf("command %s: metadata %s: %w", c.Name, commands.MetaConstraints, err)
	}
	return s, nil
}

// Constraints returns the rules of c's commands.MetaConstraints with their names
// (flags, aliases or positionals) mapped to input properties: what [Schema] writes into
// the schema, for generators that must reproduce it (the scaffold).
func Constraints(c commands.Command) ([]tool.Constraint, error) {
	app := c.New()
	ps, err := params(app)
	if err != nil {
		return nil, fmt.Errorf("command %s: %w", c.Name, err)
	}
	cs, err := constraints(app, newVocabulary(app, ps))
	if err != nil {
		return nil, fmt.Errorf("command %s: metadata %s: %w", c.Name, commands.MetaConstraints, err)
	}
	return cs, nil
}

func constraints(app *cli.App, voc vocabulary) ([]tool.Constraint, error) {
	cs, err := tool.ParseConstraints(app.Metadata[commands.MetaConstraints])
	if err != nil {
		return nil, err
	}
	out := make([]tool.Constraint, len(cs))
	for i, c := range cs {
		named := make([]string, len(c.Properties))
		for j, n := range c.Properties {
			if prop, ok := voc.flags[n]; ok {
				named[j] = prop
			} else {
				named[j] = tool.PropertyName(strings.ToLower(n))
			}
		}
		out[i] = tool.Constraint{Kind: c.Kind, Properties: named, Values: c.Values}
	}
	return out, nil
}

// toolDescription is the app's Usage in tool words (see [vocabulary.speak]).
func toolDescription(app *cli.App) string {
	ps, err := params(app)
	if err != nil {
		return app.Usage // Schema reports the error
	}
	return newVocabulary(app, ps).speak(app.Usage)
}

// stringMap reads a map[string]string or a JSON-shaped map[string]any of strings.
func stringMap(v any) (map[string]string, error) {
	switch m := v.(type) {
	case nil:
		return nil, nil
	case map[string]string:
		return m, nil
	case map[string]any:
		out := make(map[string]string, len(m))
		for k, a := range m {
			s, ok := a.(string)
			if !ok {
				return nil, fmt.Errorf("%s must be a string, not %T", k, a)
			}
			out[k] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("must be a map of name to string, not %T", v)
}
