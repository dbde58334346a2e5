package adapter

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/lazyregexp"
	"github.com/cmdbridge/cmdbridge/tool"
)

// vocabulary maps the CLI words of one app (flag names and aliases, positional names)
// to its tool input properties, so text written for `--help` reads as tool text.
type vocabulary struct {
	flags map[string]string // flag name or alias → property
	bools map[string]bool   // properties that are booleans
	args  map[string]string // positional NAME (as ArgsUsage spells it) → property
	both  map[string]bool   // properties that a flag and a positional share
}

func newVocabulary(app *cli.App, ps []param) vocabulary {
	v := vocabulary{flags: map[string]string{}, bools: map[string]bool{}, args: map[string]string{}, both: map[string]bool{}}
	flagProps := map[string]bool{}
	for _, p := range ps {
		if p.role == asFlag {
			flagProps[p.prop] = true
			if p.kind == kBool && !p.list {
				v.bools[p.prop] = true
			}
		}
	}
	for _, f := range app.Flags {
		names := flagNames(f)
		if len(names) == 0 || !flagProps[tool.PropertyName(names[0])] {
			continue
		}
		for _, n := range names {
			v.flags[n] = tool.PropertyName(names[0])
		}
	}
	usage, _ := usageOf(app)
	pos, _ := positionals(usage) // the fallback names no positional
	for _, p := range pos {
		if p.name == "" {
			continue
		}
		v.args[p.name] = p.prop
		if flagProps[p.prop] {
			v.both[p.prop] = true
		}
	}
	return v
}

var (
	// "(or the positional ID)", "(or give it as the positional ID)".
	positionalAside = lazyregexp.New(`\s*\([^()]*\bpositional\s+\[?<?([A-Za-z][A-Za-z0-9_-]*)>?\]?[^()]*\)`)
	// [<NAME>...], <NAME>..., [<NAME>], <NAME>.
	placeholder = lazyregexp.New(`\[?<([A-Za-z][A-Za-z0-9_-]*)>(?:\.\.\.)?\]?`)
	// --name, --name=value (value up to a space, comma, ")" or ";").
	longFlag = lazyregexp.New(`(^|[^\w-])--([A-Za-z0-9][A-Za-z0-9-]*)(=[^\s,;)]+)?`)
	// -x, -x=value.
	shortFlag = lazyregexp.New(`(^|[\s(\[,;])-([A-Za-z0-9])(=[^\s,;)]+)?\b`)
)

// speak rewrites CLI syntax in text (a tool or property description) into the tool's
// words: "--code-paths" and its aliases become the property code_paths ("--execute", a
// boolean, becomes execute=true; "--action=reset" becomes action=reset), "<REF>" and
// "[<REF>]" naming a positional become its property, and an aside such as "(or the
// positional ID)" is dropped when the flag and the positional are one property. Words
// the app does not define are left alone.
func (v vocabulary) speak(text string) string {
	text = positionalAside.ReplaceAllStringFunc(text, func(m string) string {
		name := positionalAside.FindStringSubmatch(m)[1]
		if prop, ok := v.args[name]; ok && v.both[prop] {
			return ""
		}
		return m
	})
	text = placeholder.ReplaceAllStringFunc(text, func(m string) string {
		if prop, ok := v.args[placeholder.FindStringSubmatch(m)[1]]; ok {
			return prop
		}
		return m
	})
	flag := func(re *lazyregexp.Regexp) func(string) string {
		return func(m string) string {
			sub := re.FindStringSubmatch(m)
			prop, ok := v.flags[sub[2]]
			if !ok {
				return m
			}
			switch {
			case sub[3] != "":
				return sub[1] + prop + sub[3]
			case v.bools[prop]:
				return sub[1] + prop + "=true"
			}
			return sub[1] + prop
		}
	}
	text = longFlag.ReplaceAllStringFunc(text, flag(longFlag))
	text = shortFlag.ReplaceAllStringFunc(text, flag(shortFlag))
	return text
}

// unquotePlaceholder drops the backticks of urfave/cli's usage placeholder ("load
// from `FILE`" reads "load from FILE"): only the first pair, as urfave/cli reads it.
func unquotePlaceholder(usage string) string {
	i := strings.IndexByte(usage, '`')
	if i < 0 {
		return usage
	}
	j := strings.IndexByte(usage[i+1:], '`')
	if j < 0 {
		return usage
	}
	return usage[:i] + usage[i+1:i+1+j] + usage[i+2+j:]
}
