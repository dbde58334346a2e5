package scaffold

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// assertions are the script commands that check the previous command's output; a parity
// line replaces them (parity compares the lanes and prints the common output).
var assertions = map[string]bool{"stdout": true, "stderr": true, "cmp": true, "cmpenv": true, "exitcode": true}

// scriptName is the corpus and parity script file name of a tool (wu:status →
// wu_status.txtar).
func scriptName(name string) string {
	return tool.Stem(name) + ".txtar"
}

// findCorpusScript returns the corpus golden script of name under scriptRoot
// (scriptRoot/<dir>/<name>.txtar, the parity folder excluded), or "" when there is none.
func findCorpusScript(scriptRoot, name string) (string, error) {
	matches, err := filepath.Glob(filepath.Join(scriptRoot, "*", scriptName(name)))
	if err != nil {
		return "", err
	}
	for _, m := range matches {
		if filepath.Base(filepath.Dir(m)) != "parity" {
			return m, nil
		}
	}
	return "", nil
}

// parityScript seeds testdata/script/parity/<tool>.txtar from the command's own script:
// the same archive files and setup lines; each `exec PROGRAM NAME args` (for a tree
// leaf, `exec PROGRAM path... args`) becomes `parity NAME 'json'` (the input the
// adapter would turn back into those args), followed, for a command that writes, by the
// original exec so later calls see the workspace the script built. Assertions on a
// command's output are dropped: parity compares the lanes. Lines it cannot convert
// (help, usage errors) stay as comments for the maintainer. Without a script, the seed
// is one call setting the command's required inputs on an empty workspace.
func parityScript(t Tool, app *cli.App, corpus string, corpusRel string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Parity of %s: every lane (subprocess, adapter, native) on its own copy of the workspace.\n", t.Spec.Name)
	if corpus == "" {
		raw, err := inputJSON(requiredInput(t.Spec.InputSchema))
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "# Scaffolded with no script of the command to seed from: the call sets its required inputs.\n")
		fmt.Fprintf(&b, "# Add calls as `parity %s '{...}'` and the files the command reads as archive files.\n", t.Spec.Name)
		fmt.Fprintf(&b, "parity %s %s\n", t.Spec.Name, quoteWord(raw))
		return b.Bytes(), nil
	}
	src, err := os.ReadFile(corpus)
	if err != nil {
		return nil, fmt.Errorf("read corpus script: %w", err)
	}
	ar := txtar.Parse(src)
	fmt.Fprintf(&b, "# Seeded by `cmdbridge scaffold %s` from %s.\n", t.Spec.Name, corpusRel)
	lines := strings.Split(strings.TrimRight(string(ar.Comment), "\n"), "\n")
	converted := 0
	for _, line := range lines {
		trimmed := strings.TrimSpace(line)
		words := scriptWords(trimmed)
		negated := len(words) > 0 && words[0] == "!"
		if negated {
			words = words[1:]
		}
		args, isCall := commandArgs(words, t.Command)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
			b.WriteString(line + "\n")
		case len(words) > 0 && assertions[words[0]]:
			// the previous command's output check: parity compares the lanes instead
		case isCall:
			input, err := argvInput(app, t.Spec.InputSchema, args)
			if err != nil {
				fmt.Fprintf(&b, "# not converted (%v): %s\n", err, trimmed)
				continue
			}
			raw, err := inputJSON(input)
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(&b, "parity %s %s\n", t.Spec.Name, quoteWord(raw))
			converted++
			if !t.Spec.Annotations.ReadOnlyHint {
				b.WriteString(line + "\n")
			}
		default:
			b.WriteString(line + "\n")
		}
	}
	if converted == 0 {
		fmt.Fprintf(&b, "parity %s '{}'\n", t.Spec.Name)
	}
	ar.Comment = b.Bytes()
	return txtar.Format(ar), nil
}

// commandArgs returns the arguments of a script line that runs c as a process: `exec
// PROGRAM NAME args...` for a command of its own, `exec PROGRAM path... args...` for a
// tree leaf (its path words in order, wherever inherited flags put them).
func commandArgs(words []string, c legacy.Command) ([]string, bool) {
	if len(words) < 2 || words[0] != "exec" {
		return nil, false
	}
	if c.Program == "" {
		if len(words) < 3 || words[2] != c.Name {
			return nil, false
		}
		return words[3:], true
	}
	if filepath.Base(words[1]) != c.Program {
		return nil, false
	}
	var args []string
	next := 0
	for _, w := range words[2:] {
		if next < len(c.Path) && w == c.Path[next] && !strings.HasPrefix(w, "-") {
			next++
			continue
		}
		args = append(args, w)
	}
	return args, next == len(c.Path)
}

// requiredInput sets each required property of s to its default, its first choice,
// or a sample value of its type.
func requiredInput(s *jsonschema.Schema) map[string]any {
	in := map[string]any{}
	for _, name := range s.Required {
		p := s.Properties[name]
		if p != nil && len(p.Default) > 0 {
			var v any
			if json.Unmarshal(p.Default, &v) == nil {
				in[name] = v
				continue
			}
		}
		in[name] = sampleValue(name, p)
	}
	return in
}

// scriptWords splits a testscript line into words: single quotes group, ” inside
// quotes is a quote. Variables are kept as written.
func scriptWords(line string) []string {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\'' && i+1 < len(line) && line[i+1] == '\'':
			cur.WriteByte('\'')
			i++
		case c == '\'':
			quoted, inWord = !quoted, true
		case !quoted && (c == ' ' || c == '\t'):
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case !quoted && c == '#' && !inWord:
			return words
		case !quoted && c == '$':
			j := i + 1
			for j < len(line) && (line[j] == '_' || line[j] >= 'a' && line[j] <= 'z' ||
				line[j] >= 'A' && line[j] <= 'Z' || line[j] >= '0' && line[j] <= '9' || line[j] == '{' || line[j] == '}') {
				j++
			}
			cur.WriteString(varOpen + line[i:j] + varClose)
			inWord, i = true, j-1
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// varOpen and varClose mark a variable reference ($WORK) that was unquoted in the corpus
// script, so the parity line leaves it unquoted and testscript still expands it. They
// are private-use runes, which JSON encoding leaves alone.
const (
	varOpen  = "\ue000"
	varClose = "\ue001"
)

// quoteWord quotes s as one testscript word; marked variables stay outside the quotes.
func quoteWord(s string) string {
	s = strings.ReplaceAll(s, "'", "''")
	s = strings.NewReplacer(varOpen, "'", varClose, "'").Replace(s)
	return "'" + s + "'"
}

// inputJSON is the input as compact JSON, keys sorted, without HTML escaping (the
// script stays readable: "a > b", not "a \u003e b").
func inputJSON(input map[string]any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(input); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// argvInput turns a command's argv (after its name) into the tool input the adapter
// would turn back into it: flags by their property names, typed by the schema;
// positionals in property order; "--" hands the rest to the last positional list.
// --json is dropped (the lanes always ask for it); --help and anything the schema
// rejects (unknown flags, bad values, extra arguments) is an error.
func argvInput(app *cli.App, s *jsonschema.Schema, args []string) (map[string]any, error) {
	flagProp := map[string]string{}
	for _, f := range app.Flags {
		names := f.Names()
		if len(names) == 0 {
			continue
		}
		prop := tool.PropertyName(names[0])
		for _, n := range names {
			flagProp[n] = prop
		}
	}
	positional, passthrough := usagePositionals(app.ArgsUsage)
	in := map[string]any{}
	set := func(prop, value string) error {
		ps := s.Properties[prop]
		if ps == nil {
			return fmt.Errorf("%q is not an input", prop)
		}
		if ps.Type == "array" {
			v, err := typed(ps.Items, value)
			if err != nil {
				return err
			}
			list, _ := in[prop].([]any)
			in[prop] = append(list, v)
			return nil
		}
		v, err := typed(ps, value)
		if err != nil {
			return err
		}
		in[prop] = v
		return nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if passthrough == "" {
				return nil, fmt.Errorf(`"--" with no passthrough input`)
			}
			for _, v := range args[i+1:] {
				if err := set(passthrough, v); err != nil {
					return nil, err
				}
			}
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			if len(positional) == 0 {
				return nil, fmt.Errorf("unexpected argument %q", a)
			}
			prop := positional[0]
			if s.Properties[prop].Type != "array" {
				positional = positional[1:]
			}
			if err := set(prop, a); err != nil {
				return nil, err
			}
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch name {
		case "json":
			continue
		case "help", "h":
			return nil, fmt.Errorf("help is not a tool call")
		}
		prop, ok := flagProp[name]
		if !ok || s.Properties[prop] == nil {
			return nil, fmt.Errorf("unknown flag %q", a)
		}
		if s.Properties[prop].Type == "boolean" {
			if !hasValue {
				value = "true"
			}
		} else if !hasValue {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("flag %q needs a value", a)
			}
			i++
			value = args[i]
		}
		if err := set(prop, value); err != nil {
			return nil, fmt.Errorf("flag %q: %w", a, err)
		}
	}
	for prop, v := range in {
		if b, ok := v.(bool); ok && !b {
			delete(in, prop) // false is absence (spec 2.6)
		}
	}
	return in, nil
}

// usagePositionals reads an app's ArgsUsage the way the adapter does: <NAME>, [<NAME>],
// NAME... tokens in order become the properties lower(NAME) ('-' → '_'), and the token
// after "--" (or inside "[-- NAME...]") is the passthrough list.
func usagePositionals(usage string) (positional []string, passthrough string) {
	after := false
	for _, tok := range strings.Fields(usage) {
		if tok == "--" || tok == "[--" {
			after = true
			continue
		}
		name := strings.ToLower(strings.Trim(tok, "[]<>."))
		if name == "" {
			continue
		}
		if after {
			passthrough = tool.PropertyName(name)
			continue
		}
		positional = append(positional, tool.PropertyName(name))
	}
	return positional, passthrough
}

// typed converts one argv word to the JSON type of s.
func typed(s *jsonschema.Schema, value string) (any, error) {
	if s == nil {
		return value, nil
	}
	switch s.Type {
	case "boolean":
		return strconv.ParseBool(value)
	case "integer":
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", value)
		}
		return n, nil
	case "number":
		n, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", value)
		}
		return n, nil
	}
	if len(s.Enum) > 0 {
		for _, e := range s.Enum {
			if e == value {
				return value, nil
			}
		}
		return nil, fmt.Errorf("%q is not one of the choices", value)
	}
	return value, nil
}
