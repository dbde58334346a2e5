package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Argv maps a tool input object to c's argv, the one mapping every lane uses:
//
//   - "--json" first when the command follows the envelope convention and declares a
//     json flag (a plain command, or one without the flag, never gets it);
//   - flags in flag-table order as two words "--name" "value", the form urfave/cli
//     and a program's own pre-parser (a main that scans os.Args for "--env-file FILE")
//     both read; a value beginning with "-" is attached instead ("--name=-x"), so no
//     word of argv that is a value begins with "-" and nothing that scans argv can take
//     it for an option; a true boolean is "--name", a false one is omitted (false
//     equals absent), except for a flag whose default is true, which gets
//     "--name=false"; a list gives one "--name" "v" per element, never comma-joined;
//     integers are written as integers;
//   - then, when there are positionals, "--" and the positionals in usage order: no
//     positional is ever read as a flag, whatever it starts with and wherever it
//     stands (urfave/cli would read a last "--generate-bash-completion" as its own
//     completion flag unless "--" precedes it); this holds for the "args" fallback too;
//   - then, when the passthrough list is non-empty, "--" and its elements.
//
// For a leaf of a command tree (c.Program set) those words follow c.Path, and each
// inherited flag is written at its level, before the path word it belongs in front of
// (c.FlagLevel): `--data-dir x notes --notebook y add --tag t -- TITLE`.
//
// An unknown property or a value of the wrong JSON type is an error naming the property,
// as is an element of a string list flag that the command would not get as given
// ([param.listElement]: a comma it splits at, white space it trims, a CSV quote), and a
// first positional naming a subcommand of the leaf, which urfave/cli would run instead.
func Argv(c legacy.Command, input json.RawMessage) ([]string, error) {
	app := c.New()
	ps, _ := params(app, c.Output)
	in := map[string]json.RawMessage{}
	if trimmed := bytes.TrimSpace(input); len(trimmed) > 0 && !bytes.Equal(trimmed, []byte("null")) {
		if err := json.Unmarshal(trimmed, &in); err != nil {
			return nil, fmt.Errorf("input must be a JSON object: %w", err)
		}
	}
	known := make(map[string]bool, len(ps))
	for _, p := range ps {
		known[p.prop] = true
	}
	var unknown []string
	for k := range in {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("unknown input property %q", unknown[0])
	}

	// levels[i] are the flag words written before c.Path[i]; levels[len(c.Path)] the
	// leaf's own, after the whole path.
	levels := make([][]string, len(c.Path)+1)
	leaf := len(c.Path)
	if c.Output != legacy.OutputPlain && declaresJSON(app) {
		levels[leaf] = append(levels[leaf], "--json")
	}
	flagWords := func(p param, words ...string) {
		at := leaf
		if l, ok := c.FlagLevel[p.flag]; ok && l >= 0 && l < leaf {
			at = l
		}
		levels[at] = append(levels[at], words...)
	}
	var pos, pass []string
	missingPositional := ""
	for _, p := range ps {
		raw, ok := in[p.prop]
		if !ok {
			if p.role == asPositional && !p.list {
				missingPositional = p.prop
			}
			continue
		}
		values, err := p.values(raw)
		if err != nil {
			return nil, fmt.Errorf("property %q: %w", p.prop, err)
		}
		switch p.role {
		case asFlag:
			if p.kind == kBool && !p.list {
				switch {
				case values[0] == "true":
					flagWords(p, "--"+p.flag)
				case p.defaultTrue:
					flagWords(p, "--"+p.flag+"=false")
				}
				continue
			}
			for i, v := range values {
				if p.list && p.kind == kString {
					if why := p.listElement(v); why != "" {
						return nil, fmt.Errorf("property %q: element %d %s, so the command would not get it as given", p.prop, i, why)
					}
				} else if p.trims && strings.TrimSpace(v) != v {
					return nil, fmt.Errorf("property %q begins or ends with white space, which the command trims, so it would not get it as given", p.prop)
				}
				flagWords(p, valueWords(p.flag, v)...)
			}
		case asPositional:
			if missingPositional != "" && len(values) > 0 {
				return nil, fmt.Errorf("property %q needs %q: positionals are given in order", p.prop, missingPositional)
			}
			pos = append(pos, values...)
		case asPassthrough:
			pass = append(pass, values...)
		}
	}
	// urfave/cli (v2 and v3) runs the subcommand the first word after "--" names, when
	// the leaf has subcommands: that word may not name one.
	first := pass
	if len(pos) > 0 {
		first = pos
	}
	if len(first) > 0 {
		where := strings.Join(append([]string{c.Program}, c.Path...), " ")
		if subs, _ := stringList(app.Metadata[legacy.MetaSubcommands]); slices.Contains(subs, first[0]) {
			return nil, fmt.Errorf("the first positional %q names a subcommand of %s, which the command would run instead", first[0], where)
		}
		if words, _ := stringList(app.Metadata[legacy.MetaHelpWords]); slices.Contains(words, first[0]) {
			return nil, fmt.Errorf("the first positional %q is a word %s answers with its help instead of running, so it cannot be the first positional", first[0], where)
		}
	}
	var argv []string
	for i, word := range c.Path {
		argv = append(append(argv, levels[i]...), word)
	}
	argv = append(argv, levels[leaf]...)
	if len(pos) > 0 {
		argv = append(argv, "--")
		argv = append(argv, pos...)
	}
	if len(pass) > 0 {
		argv = append(argv, "--")
		argv = append(argv, pass...)
	}
	return argv, nil
}

// listElement says why the program would not get v, one element of a string list
// flag, as given ("" when it would): urfave/cli splits a value on the list's separator
// and v2 trims each piece of white space (without KeepSpace); pflag's string slices
// (cobra) read a value as a line of CSV, unquoting a field that begins with '"' and
// ending it at a line break. The caller's value, which the kernel checked (a path held
// to the scopes, a pattern), must be the one the command gets.
func (p param) listElement(v string) string {
	for _, sep := range p.separators {
		switch {
		case sep == "":
		case sep == "," && strings.Contains(v, ","):
			return "holds a comma, which the command splits into two values (its app does not set DisableSliceFlagSeparator)"
		case strings.Contains(v, sep):
			return fmt.Sprintf("holds the app's SliceFlagSeparator %q, at which the command splits it into two values", sep)
		}
	}
	switch {
	case p.trims && strings.TrimSpace(v) != v:
		return "begins or ends with white space, which the command trims"
	case len(p.separators) > 0 && (strings.HasPrefix(v, `"`) || strings.ContainsAny(v, "\r\n")):
		return "begins with a quote or holds a line break, which a command reading the list as CSV (cobra's string slices) unquotes or cuts at"
	}
	return ""
}

// valueWords writes a flag and its value: two words, or one "--name=value" when the
// value begins with "-" (see [Argv]).
func valueWords(flag, value string) []string {
	if strings.HasPrefix(value, "-") {
		return []string{"--" + flag + "=" + value}
	}
	return []string{"--" + flag, value}
}

// declaresJSON reports whether app's flag table has a flag named json.
func declaresJSON(app *cli.App) bool {
	for _, f := range app.Flags {
		for _, n := range flagNames(f) {
			if n == "json" {
				return true
			}
		}
	}
	return false
}

// values decodes one property's JSON value into argv words.
func (p param) values(raw json.RawMessage) ([]string, error) {
	if !p.list {
		v, err := scalarWord(p.kind, raw)
		if err != nil {
			return nil, err
		}
		return []string{v}, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		return nil, fmt.Errorf("expected an array of %ss, got %s", jsonType(p.kind), describe(raw))
	}
	out := make([]string, 0, len(items))
	for i, item := range items {
		v, err := scalarWord(p.kind, item)
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
		out = append(out, v)
	}
	return out, nil
}

func scalarWord(k kind, raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	fail := func() (string, error) {
		return "", fmt.Errorf("expected %s, got %s", article(jsonType(k)), describe(raw))
	}
	switch k {
	case kString:
		var s string
		if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
			return fail()
		}
		return s, nil
	case kBool:
		switch string(raw) {
		case "true", "false":
			return string(raw), nil
		}
		return fail()
	case kInt:
		if _, err := strconv.ParseInt(string(raw), 10, 64); err != nil {
			return fail()
		}
		return string(raw), nil
	case kUint:
		if _, err := strconv.ParseUint(string(raw), 10, 64); err != nil {
			return fail()
		}
		return string(raw), nil
	case kFloat:
		var n json.Number
		if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) || json.Unmarshal(raw, &n) != nil {
			return fail()
		}
		return n.String(), nil
	}
	return fail()
}

func article(t string) string {
	if t == "integer" || t == "array" {
		return "an " + t
	}
	return "a " + t
}

// describe names a JSON value's type for error messages.
func describe(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number (" + string(raw) + ")"
}
