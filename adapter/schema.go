package adapter

import (
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/apptree"
	"github.com/cmdbridge/cmdbridge/internal/lazyregexp"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
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
	// name is a positional's NAME as the usage text spells it ("" for the fallback).
	name string
	// note is appended to the description after it is rewritten into tool words: the
	// format of a duration or timestamp, the forms of an alternative.
	note string
	// separators: a string list flag's separators, at which the program splits each
	// value (urfave/cli's "," or App.SliceFlagSeparator; none when
	// DisableSliceFlagSeparator is set; legacy.MetaSliceSeparators when declared), so an
	// element may not hold one (see [listElement]).
	separators []string
	// trims: a string flag whose value (a list's elements) the program trims of white
	// space (urfave/cli v2's StringSliceFlag without KeepSpace; a scalar named in
	// legacy.MetaTrimmedFlags), so none may be padded.
	trims bool
	// defaultTrue: a boolean flag whose default is true, so false must be written out.
	defaultTrue bool
	// file: the program declares the flag's value a file or directory ([namesAFile]).
	file bool
}

// skipped flags are never inputs: help and version are not tool behaviour, and json is
// always passed by the bridge (spec 2.6).
var skipped = map[string]bool{"help": true, "version": true, "json": true, "generate-bash-completion": true}

// fallbackArgs is the property of the positional fallback (or fallbackArgsAlt when a
// flag already is "args").
const (
	fallbackArgs    = "args"
	fallbackArgsAlt = "positional_args"
)

// params reads a pristine app's flag table and positional usage. It never fails: a flag
// or a usage it cannot map degrades to the documented fallback (docs/schemas.md) and
// says so in the warnings, one sentence each.
//
// json is no input of an envelope command (the bridge passes it, spec 2.6); a plain
// command's json flag, when it has one, is an ordinary input.
func params(app *cli.App, output string) ([]param, []string) {
	var out []param
	var warnings []string
	byProp := map[string]bool{}
	for i, f := range app.Flags {
		p, ok, warning := flagInput(app, f, output == legacy.OutputPlain)
		if warning != "" {
			if p.flag == "" {
				warning = fmt.Sprintf("flag %d (%T): %s", i+1, f, warning)
			}
			warnings = append(warnings, warning)
		}
		if !ok {
			continue
		}
		if byProp[p.prop] {
			warnings = append(warnings, fmt.Sprintf("flag --%s: property %q is taken by an earlier flag, so this flag is not an input", p.flag, p.prop))
			continue
		}
		byProp[p.prop] = true
		out = append(out, p)
	}
	prop := fallbackArgs
	if byProp[prop] {
		prop = fallbackArgsAlt
	}
	fallback := func(description string) param {
		return param{prop: prop, kind: kString, list: true, role: asPositional,
			schema: &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"}, Description: description}}
	}
	if !declaresPositionals(app) {
		if noArgs, _ := app.Metadata[legacy.MetaNoArgs].(bool); noArgs {
			return out, warnings
		}
		if subs, _ := app.Metadata[legacy.MetaSubcommands].([]string); len(subs) > 0 {
			warnings = append(warnings, fmt.Sprintf("positionals undeclared and not offered: a first positional naming a subcommand (%s) would run it instead; declare none with a blank ArgsUsage", strings.Join(subs, ", ")))
			return out, warnings
		}
		warnings = append(warnings, fmt.Sprintf("positionals undeclared: %s is passed after --; declare ArgsUsage to get named properties (a blank ArgsUsage declares none)", prop))
		return append(out, fallback("the command's positional arguments, in order (its usage does not declare them)")), warnings
	}
	usage, from := usageOf(app)
	pos, err := positionals(usage)
	if err != nil {
		warnings = append(warnings, fmt.Sprintf("%s %q is outside the positional grammar (%v): the positionals are one list %s, passed verbatim", from, usage, err, prop))
		return append(out, fallback("the command's positional arguments, in order ("+from+": "+usage+")")), warnings
	}
	types, _ := stringMap(app.Metadata[legacy.MetaArgTypes]) // a malformed table is schemaOf's error
	for _, p := range pos {
		if byProp[p.prop] {
			continue // the flag of the same name is the input; the positional stays unused
		}
		for name, typ := range types {
			if positionalProp(name) == p.prop && p.role == asPositional {
				p.retype(typ)
			}
		}
		byProp[p.prop] = true
		out = append(out, p)
	}
	return out, warnings
}

// flagInput maps one flag of app's table: ok is false for a flag that is no input (help,
// version, json, a hidden flag, or one whose methods panic, which comes with a warning).
func flagInput(app *cli.App, f cli.Flag, plain bool) (p param, ok bool, warning string) {
	defer func() {
		if r := recover(); r != nil {
			p, ok, warning = param{}, false, fmt.Sprintf("reading the flag panicked (%v), so it is not an input", r)
		}
	}()
	names := f.Names()
	if len(names) == 0 || (skipped[names[0]] && !(plain && names[0] == "json")) {
		return param{}, false, ""
	}
	if v, is := f.(cli.VisibleFlag); is && !v.IsVisible() {
		return param{}, false, ""
	}
	p, warning = flagParam(f)
	if warning != "" {
		warning = fmt.Sprintf("flag --%s: %s", names[0], warning)
	}
	p.file = namesAFile(f)
	if p.schema.Default != nil && sourced(f) {
		// A running app's flag holds what its environment variable or file gave it
		// (urfave/cli sets Value when it applies the flag), not its default: a
		// secret must never become a schema's default.
		p.schema.Default = nil
	}
	p.flag, p.prop, p.role = names[0], tool.PropertyName(names[0]), asFlag
	if r, is := f.(cli.RequiredFlag); is && r.IsRequired() {
		p.required = true
		if p.list {
			// An empty list passes no flag at all: urfave/cli then finds it missing.
			p.schema.MinItems = jsonschema.Ptr(1)
		}
	}
	if d, is := f.(cli.DocGenerationFlag); is && d.GetUsage() != "" {
		p.schema.Description = unquotePlaceholder(d.GetUsage())
	}
	legacy.ConstrainSchema(f, p.schema)
	if p.list && p.kind == kString {
		if !app.DisableSliceFlagSeparator {
			p.separators = []string{cmp.Or(app.SliceFlagSeparator, ",")}
		}
		if v, declared := app.Metadata[legacy.MetaSliceSeparators]; declared {
			p.separators, _ = stringList(v) // a malformed list is schemaOf's error
		}
		p.trims = !keepsSpace(f)
	} else if p.kind == kString {
		trimmed, _ := stringList(app.Metadata[legacy.MetaTrimmedFlags]) // as above
		p.trims = slices.Contains(trimmed, names[0])
	}
	return p, true, warning
}

// keepsSpace reports whether a string list flag hands its elements on with their white
// space: urfave/cli v2's StringSliceFlag (or a MultiStringFlag around one) with
// KeepSpace. Any other is taken to trim them, as v2 does by default.
func keepsSpace(f cli.Flag) bool {
	if target, _, ok := sliceWrapper(f); ok {
		f = target
	}
	s, ok := f.(*cli.StringSliceFlag)
	return ok && s.KeepSpace
}

// sourced reports whether f's value may come from outside the program
// (apptree.Sourced): a running app's flag then holds it, not its default.
func sourced(f cli.Flag) bool {
	d, ok := f.(cli.DocGenerationFlag)
	if !ok {
		return false
	}
	filePath := ""
	if v := reflect.ValueOf(f); v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct {
		if fp := v.Elem().FieldByName("FilePath"); fp.IsValid() && fp.Kind() == reflect.String {
			filePath = fp.String()
		}
	}
	return apptree.Sourced(d.GetEnvVars(), filePath)
}

// flagNames is f.Names(), or none when that panics (see [flagInput]).
func flagNames(f cli.Flag) (names []string) {
	defer func() {
		if recover() != nil {
			names = nil
		}
	}()
	return f.Names()
}

// declaresPositionals reports whether app says what positionals it takes: an ArgsUsage
// (a blank one declares none) or a UsageText (the positionals after the command's name,
// perhaps none).
func declaresPositionals(app *cli.App) bool {
	return app.ArgsUsage != "" || strings.TrimSpace(app.UsageText) != ""
}

// usageOf returns the text the positionals are read from and its name: App.ArgsUsage,
// or, when that is empty, the first line of App.UsageText after the command's name
// (HelpName, else Name, else the first word unless it starts with "[", "<" or "-").
func usageOf(app *cli.App) (usage, from string) {
	if strings.TrimSpace(app.ArgsUsage) != "" || strings.TrimSpace(app.UsageText) == "" {
		return strings.TrimSpace(app.ArgsUsage), "ArgsUsage"
	}
	line := strings.TrimSpace(strings.SplitN(strings.TrimSpace(app.UsageText), "\n", 2)[0])
	for _, name := range []string{app.HelpName, app.Name} {
		if name != "" && (line == name || strings.HasPrefix(line, name+" ")) {
			return strings.TrimSpace(strings.TrimPrefix(line, name)), "UsageText"
		}
	}
	if first, rest, _ := strings.Cut(line, " "); first != "" && !strings.ContainsAny(first[:1], "[<-") {
		return strings.TrimSpace(rest), "UsageText"
	}
	return line, "UsageText"
}

// positional tokens: <NAME>, [<NAME>], <NAME>..., [<NAME>...]; the angle brackets may be
// left out (NAME, [NAME...]), as urfave/cli help texts often do.
var positionalToken = lazyregexp.New(`^(\[)?(?:<([A-Za-z][A-Za-z0-9_-]*)>|([A-Za-z][A-Za-z0-9_-]*))(\.\.\.)?(\])?$`)

// flagToken is a flag written into a usage text: -y, --dry-run, [-y], [--dry-run],
// [--out=FILE]; the flag table, not the usage, makes it an input.
var flagToken = lazyregexp.New(`^\[?--?[A-Za-z0-9][A-Za-z0-9_-]*(=[^\]]*)?\]?$`)

// alternative is one form of an alternatives token (<a>|<b>): a placeholder, a word,
// or a compound such as <user>/<project>.
var alternative = lazyregexp.New(`^[A-Za-z0-9<>/:@._-]+$`)

// literalWord is an alternative spelled as the literal word to type (start|stop).
var literalWord = lazyregexp.New(`^[a-z][a-z0-9_-]*$`)

// placeholderName is an alternative that is one placeholder: <NAME> or an upper-case NAME.
var placeholderName = lazyregexp.New(`^(?:<([A-Za-z][A-Za-z0-9_-]*)>|([A-Z][A-Z0-9_-]*))$`)

// normaliseUsage rewrites an optional passthrough written as "[-- NAME...]" to the
// canonical "-- [NAME...]", drops flags written into the usage ("[-y]", "--dry-run",
// "[--out FILE]", "[options]", "[command options]") and merges "FILE [FILE...]" into
// "FILE...".
func normaliseUsage(tokens []string) []string {
	for i, tok := range tokens {
		if tok == "[--" && i == len(tokens)-2 && strings.HasSuffix(tokens[i+1], "]") && !strings.HasPrefix(tokens[i+1], "[") {
			tokens = append(append([]string{}, tokens[:i]...), "--", "["+tokens[i+1])
			break
		}
	}
	var out []string
	for i := 0; i < len(tokens); i++ {
		tok := tokens[i]
		lower := strings.ToLower(tok)
		switch {
		case tok == "--":
		case flagToken.MatchString(tok) && (strings.HasPrefix(tok, "[") == strings.HasSuffix(tok, "]")):
			continue
		case strings.HasPrefix(tok, "[-") && !strings.HasSuffix(tok, "]") && i+1 < len(tokens) &&
			strings.HasSuffix(tokens[i+1], "]") && !strings.Contains(tokens[i+1], "["):
			i++ // "[--out FILE]": a flag with its value
			continue
		case lower == "[options]" || lower == "[flags]" || lower == "[global" && i+1 < len(tokens) && strings.ToLower(tokens[i+1]) == "options]":
			if lower == "[global" {
				i++
			}
			continue
		case lower == "[command" && i+1 < len(tokens) && strings.ToLower(tokens[i+1]) == "options]":
			i++
			continue
		}
		// NAME [NAME...] (and <NAME> [<NAME>...]): one list of at least one.
		if i+1 < len(tokens) {
			a, b := positionalToken.FindStringSubmatch(tok), positionalToken.FindStringSubmatch(tokens[i+1])
			if a != nil && b != nil && a[1] == "" && a[4] == "" && a[5] == "" && b[1] == "[" && b[4] == "..." && b[5] == "]" && a[2]+a[3] == b[2]+b[3] {
				out = append(out, tok+"...")
				i++
				continue
			}
		}
		out = append(out, tok)
	}
	return out
}

// positionals parses a usage text. A token outside the grammar (see [Schema]) is an
// error, which [params] turns into the fallback.
func positionals(usage string) ([]param, error) {
	var out []param
	passthrough, sawOptional, sawList := false, false, false
	seen := map[string]bool{}
	tokens := normaliseUsage(strings.Fields(usage))
	for i, tok := range tokens {
		if tok == "--" {
			if passthrough || i == len(tokens)-1 {
				return nil, fmt.Errorf(`"--" must be followed by exactly one <NAME>... token`)
			}
			passthrough = true
			continue
		}
		var p param
		optional, list := false, false
		if m := positionalToken.FindStringSubmatch(tok); m != nil && (m[1] == "[") == (m[5] == "]") {
			name := m[2] + m[3] // one of the two is empty
			optional, list = m[1] == "[", m[4] == "..."
			p = param{prop: tool.PropertyName(strings.ToLower(name)), name: name}
		} else if alt, ok := alternatives(tok); ok {
			p, optional = alt, strings.HasPrefix(tok, "[")
		} else {
			return nil, fmt.Errorf("token %q is not <NAME>, [<NAME>], <NAME>..., [<NAME>...], NAME [NAME...] or <a>|<b>", tok)
		}
		p.kind, p.list, p.required, p.role = kString, list, !optional, asPositional
		if seen[p.prop] {
			return nil, fmt.Errorf("token %q names %s a second time", tok, p.prop)
		}
		seen[p.prop] = true
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
		// the usage only names it.
		if p.schema == nil {
			p.schema = &jsonschema.Schema{Type: "string"}
		}
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

// retype makes a string positional's values of the JSON type typ ("integer" or
// "number"; any other leaves it a string).
func (p *param) retype(typ string) {
	switch typ {
	case "integer":
		p.kind = kInt
	case "number":
		p.kind = kFloat
	default:
		return
	}
	values := p.schema
	if values.Type == "array" && values.Items != nil {
		values = values.Items
	}
	values.Type = typ
}

// alternatives reads "<a>|<b>" or "[<a>|<b>]": one string positional named after the
// first form when it is one placeholder (else "arg"), its description listing the
// forms; when every form is a literal lower-case word (start|stop) they are its enum.
func alternatives(tok string) (param, bool) {
	body := tok
	if strings.HasPrefix(tok, "[") != strings.HasSuffix(tok, "]") {
		return param{}, false
	}
	if strings.HasPrefix(tok, "[") {
		body = tok[1 : len(tok)-1]
	}
	forms := strings.Split(body, "|")
	if len(forms) < 2 {
		return param{}, false
	}
	literal := true
	for _, f := range forms {
		if f == "" || !alternative.MatchString(f) {
			return param{}, false
		}
		literal = literal && literalWord.MatchString(f)
	}
	p := param{prop: "arg", schema: &jsonschema.Schema{Type: "string"}}
	if literal {
		for _, f := range forms {
			p.schema.Enum = append(p.schema.Enum, f)
		}
		p.note = "One of: " + strings.Join(forms, ", ") + "."
		return p, true
	}
	if m := placeholderName.FindStringSubmatch(forms[0]); m != nil {
		p.name = m[1] + m[2]
		p.prop = tool.PropertyName(strings.ToLower(p.name))
	}
	p.note = "Any of the forms " + strings.Join(forms, " or ") + "."
	return p, true
}

// namesAFile reports whether the program declares f's value a file or a directory: a
// PathFlag, or a flag with TakesFile (urfave/cli's shell completion offers files for
// it; the cobra and v3 describers set it from MarkFlagFilename, MarkFlagDirname and v3's
// own TakesFile).
func namesAFile(f cli.Flag) bool {
	switch f := f.(type) {
	case *cli.PathFlag:
		return true
	case *cli.StringFlag:
		return f.TakesFile
	case *cli.StringSliceFlag:
		return f.TakesFile
	case *cli.GenericFlag:
		return f.TakesFile
	}
	return false
}

// flagParam maps one urfave/cli v2 flag type to its JSON type, schema and default. A
// flag type it does not know maps by what the flag says of itself (a string when it
// takes a value, a boolean otherwise) and comes back with a warning.
func flagParam(f cli.Flag) (param, string) {
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
		return scalar(kString, f.Value), ""
	case *cli.PathFlag:
		return scalar(kString, f.Value), ""
	case *cli.BoolFlag:
		p := scalar(kBool, f.Value)
		p.defaultTrue = f.Value
		return p, ""
	case *cli.IntFlag:
		return scalar(kInt, f.Value), ""
	case *cli.Int64Flag:
		return scalar(kInt, f.Value), ""
	case *cli.UintFlag:
		return scalar(kUint, f.Value), ""
	case *cli.Uint64Flag:
		return scalar(kUint, f.Value), ""
	case *cli.Float64Flag:
		return scalar(kFloat, f.Value), ""
	case *cli.DurationFlag:
		var def any
		if f.Value != 0 {
			def = f.Value.String()
		}
		p := scalar(kString, def)
		p.note = "A Go duration such as 90s, 5m or 1h30m."
		return p, ""
	case *cli.TimestampFlag:
		p := scalar(kString, nil)
		if f.Value != nil && f.Value.Value() != nil {
			p.schema.Default = defaultJSON(f.Value.Value().Format(f.Layout))
		}
		if f.Layout != "" {
			p.note = "A time in the Go layout " + f.Layout + "."
		}
		return p, ""
	case *cli.GenericFlag:
		p := scalar(kString, nil)
		if f.Value != nil {
			p.schema.Default = defaultJSON(genericDefault(f.Value))
			if c, ok := f.Value.(legacy.Choices); ok {
				for _, w := range c.Choices() {
					p.schema.Enum = append(p.schema.Enum, w)
				}
			}
		}
		return p, ""
	case *cli.StringSliceFlag:
		var def []string
		if f.Value != nil {
			def = f.Value.Value()
		}
		return list(kString, def), ""
	case *cli.IntSliceFlag:
		var def []int
		if f.Value != nil {
			def = f.Value.Value()
		}
		return list(kInt, def), ""
	case *cli.Int64SliceFlag:
		var def []int64
		if f.Value != nil {
			def = f.Value.Value()
		}
		return list(kInt, def), ""
	case *cli.Float64SliceFlag:
		var def []float64
		if f.Value != nil {
			def = f.Value.Value()
		}
		return list(kFloat, def), ""
	case *cli.UintSliceFlag:
		var def []uint
		if f.Value != nil {
			def = f.Value.Value()
		}
		return list(kUint, def), ""
	case *cli.Uint64SliceFlag:
		var def []uint64
		if f.Value != nil {
			def = f.Value.Value()
		}
		return list(kUint, def), ""
	}
	if target, def, ok := sliceWrapper(f); ok {
		p, warning := flagParam(target)
		if !p.list {
			p = param{kind: p.kind, list: true, schema: &jsonschema.Schema{Type: "array", Items: p.schema}}
			p.schema.Items.Default = nil
		}
		p.schema.Default = defaultJSON(def)
		return p, warning
	}
	if d, ok := f.(cli.DocGenerationFlag); ok && !d.TakesValue() {
		return scalar(kBool, nil), UnknownFlagWarning(fmt.Sprintf("%T", f), false)
	}
	return scalar(kString, nil), UnknownFlagWarning(fmt.Sprintf("%T", f), true)
}

// UnknownFlagWarning is what a tool's schema says of a flag whose Go type (typ) is not
// urfave/cli v2's: served as a string when it takes a value, else as a boolean. The
// cmdbridge host says the same of such a flag read from a program's manifest.
func UnknownFlagWarning(typ string, takesValue bool) string {
	if takesValue {
		return "flag type " + typ + " is not a urfave/cli v2 type; it is a string passed as --name=value"
	}
	return "flag type " + typ + " is not a urfave/cli v2 type; it takes no value, so it is a boolean"
}

// sliceWrapper recognises cli.SliceFlag[T, S, E] (MultiStringFlag, MultiIntFlag, …) and
// any flag built like it: a pointer to a struct whose Target field is itself a cli.Flag
// and whose Value field is a slice (the default). Generic types cannot be matched by a
// type switch, hence reflection.
func sliceWrapper(f cli.Flag) (target cli.Flag, def any, ok bool) {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil, nil, false
	}
	s := v.Elem()
	t, val := s.FieldByName("Target"), s.FieldByName("Value")
	if !t.IsValid() || !val.IsValid() || val.Kind() != reflect.Slice || !t.CanInterface() || !val.CanInterface() {
		return nil, nil, false
	}
	target, ok = t.Interface().(cli.Flag)
	if !ok || target == nil || (t.Kind() == reflect.Pointer && t.IsNil()) {
		return nil, nil, false
	}
	if !val.IsNil() {
		def = val.Interface()
	}
	return target, def, true
}

// genericDefault is a Generic value's String(), unless it says nothing: "", "[]", "{}",
// "map[]", "<nil>" or a panic (a typed nil), which are not defaults a caller can send.
func genericDefault(v cli.Generic) (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	switch s = v.String(); strings.TrimSpace(s) {
	case "", "[]", "{}", "map[]", "<nil>", "null":
		return ""
	}
	return s
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
// version and json excluded) and per positional, in table order. docs/schemas.md is the
// full account; in short:
//
// Every urfave/cli v2 flag type maps (the SliceFlag wrappers such as MultiStringFlag to
// an array of their element type, a Generic to a string whose default is its String()
// only when that says something); a flag type of another package maps to a string when
// it takes a value and a boolean otherwise, with a warning ([Warnings]).
//
// Positionals come from App.ArgsUsage, or when that is empty from the first line of
// App.UsageText after the command's name: space-separated tokens <NAME> (a required
// string), [<NAME>] (optional), <NAME>... or [<NAME>...] (an array; only the last
// positional), NAME [NAME...] (an array of at least one), <a>|<b> (one string, named
// after the first form or "arg", its description listing the forms; literal words
// a|b are its enum), and "-- <NAME>..." or "[-- NAME...]" for a passthrough array placed
// after "--" in argv. Angle brackets may be left out; flags written into the usage
// ([-y], [--dry-run], [--out FILE], [options]) are skipped, the flag table has them.
// Each becomes the property lower(NAME) with "-" as "_"; when a flag already maps to
// that property, the flag wins. Any other usage falls back to one optional array
// property "args" (or "positional_args" when a flag is args) passed verbatim as the
// positionals, with a warning naming the usage. An app whose positionals are declared
// nowhere (no ArgsUsage, no UsageText) gets the same "args" with a warning, since its
// action may read them all the same, unless its Metadata says legacy.MetaNoArgs; a
// blank ArgsUsage (" ") declares none.
//
// Descriptions speak tool, not CLI: a flag's is its Usage, a positional's its entry in
// the app's legacy.MetaArgDescriptions (none otherwise), and in both flag syntax,
// positional placeholders and urfave/cli's backtick placeholder are rewritten into
// property names (see [vocabulary.speak]). The rules of legacy.MetaConstraints are
// written in with [tool.ApplyConstraints], their names (flags or positionals) mapped to
// properties; a rule naming no input is an error, as is malformed metadata: those are
// configuration written for cmdbridge, not derivation.
func Schema(c legacy.Command) (*jsonschema.Schema, error) {
	s, _, _, err := schemaOf(c)
	return s, err
}

// Warnings lists what [Schema] could not map as written and mapped to its fallback
// instead (see docs/schemas.md), one sentence each; none for a command it maps fully.
func Warnings(c legacy.Command) []string {
	_, warnings := params(c.New(), c.Output)
	return append(warnings, c.Warnings...)
}

// schemaOf is [Schema] with the params it was made of and its warnings.
func schemaOf(c legacy.Command) (*jsonschema.Schema, []param, []string, error) {
	app := c.New()
	ps, warnings := params(app, c.Output)
	warnings = append(warnings, c.Warnings...) // the description's own (a wrapped program's help)
	voc := newVocabulary(app, ps)
	argDescriptions, err := stringMap(app.Metadata[legacy.MetaArgDescriptions])
	if err != nil {
		return nil, nil, warnings, fmt.Errorf("command %s: metadata %s: %w", c.Name, legacy.MetaArgDescriptions, err)
	}
	argChoices, err := choicesMap(app.Metadata[legacy.MetaArgChoices])
	if err != nil {
		return nil, nil, warnings, fmt.Errorf("command %s: metadata %s: %w", c.Name, legacy.MetaArgChoices, err)
	}
	leadingDash, err := stringList(app.Metadata[legacy.MetaArgLeadingDash])
	if err != nil {
		return nil, nil, warnings, fmt.Errorf("command %s: metadata %s: %w", c.Name, legacy.MetaArgLeadingDash, err)
	}
	for _, key := range []string{legacy.MetaTrimmedFlags, legacy.MetaSliceSeparators} {
		if _, err := stringList(app.Metadata[key]); err != nil {
			return nil, nil, warnings, fmt.Errorf("command %s: metadata %s: %w", c.Name, key, err)
		}
	}
	argTypes, err := stringMap(app.Metadata[legacy.MetaArgTypes])
	if err != nil {
		return nil, nil, warnings, fmt.Errorf("command %s: metadata %s: %w", c.Name, legacy.MetaArgTypes, err)
	}
	for name, typ := range argTypes {
		if typ != "integer" && typ != "number" && typ != "string" {
			return nil, nil, warnings, fmt.Errorf("command %s: metadata %s: %q: type %q is not integer, number or string", c.Name, legacy.MetaArgTypes, name, typ)
		}
		if !slices.ContainsFunc(ps, func(p param) bool { return p.role == asPositional && p.prop == positionalProp(name) }) {
			return nil, nil, warnings, fmt.Errorf("command %s: metadata %s: %q is no positional", c.Name, legacy.MetaArgTypes, name)
		}
	}
	for _, name := range leadingDash {
		if !slices.ContainsFunc(ps, func(p param) bool { return p.role == asPositional && p.prop == positionalProp(name) }) {
			return nil, nil, warnings, fmt.Errorf("command %s: metadata %s: %q is no positional", c.Name, legacy.MetaArgLeadingDash, name)
		}
	}
	for _, p := range ps {
		if p.role != asFlag {
			for name, d := range argDescriptions {
				if tool.PropertyName(strings.ToLower(name)) == p.prop {
					p.schema.Description = d
				}
			}
			for name, words := range argChoices {
				if tool.PropertyName(strings.ToLower(name)) == p.prop {
					values := p.schema
					if values.Type == "array" && values.Items != nil {
						values = values.Items
					}
					values.Enum = nil
					for _, w := range words {
						values.Enum = append(values.Enum, w)
					}
				}
			}
		}
		if p.role == asPositional && p.kind == kString {
			operand(p.schema, slices.ContainsFunc(leadingDash, func(n string) bool { return positionalProp(n) == p.prop }))
		}
		p.schema.Description = voc.speak(p.schema.Description)
		if p.note != "" {
			p.schema.Description = strings.TrimSpace(strings.TrimRight(p.schema.Description, ". ") + ". " + p.note)
			p.schema.Description = strings.TrimPrefix(p.schema.Description, ". ")
		}
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
		return nil, nil, warnings, fmt.Errorf("command %s: metadata %s: %w", c.Name, legacy.MetaConstraints, err)
	}
	if err := tool.ApplyConstraints(s, cs...); err != nil {
		return nil, nil, warnings, fmt.Errorf("command %s: metadata %s: %w", c.Name, legacy.MetaConstraints, err)
	}
	return s, ps, warnings, nil
}

// Constraints returns the rules of c's legacy.MetaConstraints with their names
// (flags, aliases or positionals) mapped to input properties: what [Schema] writes into
// the schema, for generators that must reproduce it (the scaffold).
func Constraints(c legacy.Command) ([]tool.Constraint, error) {
	app := c.New()
	ps, _ := params(app, c.Output)
	cs, err := constraints(app, newVocabulary(app, ps))
	if err != nil {
		return nil, fmt.Errorf("command %s: metadata %s: %w", c.Name, legacy.MetaConstraints, err)
	}
	return cs, nil
}

func constraints(app *cli.App, voc vocabulary) ([]tool.Constraint, error) {
	cs, err := tool.ParseConstraints(app.Metadata[legacy.MetaConstraints])
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
func toolDescription(app *cli.App, output string) string {
	ps, _ := params(app, output)
	return newVocabulary(app, ps).speak(app.Usage)
}

// operand gives a positional's values tool.OperandPattern, so none can be read as an
// option (docs/schemas.md, "Positionals"), unless the command lets them begin with "-"
// (dash) or its words are an enum, which says every value it takes.
func operand(s *jsonschema.Schema, dash bool) {
	values := s
	if values.Type == "array" && values.Items != nil {
		values = values.Items
	}
	if dash || len(values.Enum) > 0 || values.Pattern != "" {
		return
	}
	values.Pattern = tool.OperandPattern
}

// positionalProp is the property of a positional named as the usage spells it (ID) or
// by its property (id).
func positionalProp(name string) string { return tool.PropertyName(strings.ToLower(name)) }

// stringList reads legacy.MetaArgLeadingDash: a []string or a JSON-shaped []any of
// strings.
func stringList(v any) ([]string, error) {
	switch l := v.(type) {
	case nil:
		return nil, nil
	case []string:
		return l, nil
	case []any:
		out := make([]string, 0, len(l))
		for _, a := range l {
			s, ok := a.(string)
			if !ok {
				return nil, fmt.Errorf("must be a list of strings, not one holding %T", a)
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("must be a list of positional names, not %T", v)
}

// stringMap reads a map[string]string or a JSON-shaped map[string]any of strings.
// choicesMap reads legacy.MetaArgChoices: a map of name to a list of words.
func choicesMap(v any) (map[string][]string, error) {
	switch m := v.(type) {
	case nil:
		return nil, nil
	case map[string][]string:
		return m, nil
	case map[string]any:
		out := make(map[string][]string, len(m))
		for k, a := range m {
			list, ok := a.([]any)
			if !ok {
				return nil, fmt.Errorf("%s must be a list of strings, not %T", k, a)
			}
			for _, w := range list {
				s, ok := w.(string)
				if !ok {
					return nil, fmt.Errorf("%s must be a list of strings, not one holding %T", k, w)
				}
				out[k] = append(out[k], s)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("must be a map of name to a list of strings, not %T", v)
}

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
