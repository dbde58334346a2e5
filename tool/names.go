package tool

import (
	"fmt"
	"maps"
	"sort"
	"strings"
	"unicode"
)

// Key folds a spelling of a tool name to its lookup key: letters lower-cased, digits kept,
// every other character dropped. wu:create, wu_create, wu-create and WuCreate all give
// "wucreate". Pack prefixes are handled by [Names.Resolve].
func Key(spelling string) string {
	var b strings.Builder
	b.Grow(len(spelling))
	for _, r := range spelling {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// MCPName is the MCP-safe spelling of a canonical name: ":" and "-" become "_".
func MCPName(name string) string {
	return strings.NewReplacer(":", "_", "-", "_").Replace(name)
}

// Stem is the file stem every piece of a corpus tool is named by (docs/architecture.md,
// "Where a tool lives"): the canonical name lower-cased, with ":" and "-" as "_"
// (wu:create → wu_create, lane-lock:acquire → lane_lock_acquire, doctor → doctor).
func Stem(name string) string { return strings.ToLower(MCPName(name)) }

// Domain is the listing group a name implies: the part before the first ":", or the
// whole name when it has none (wu:create → wu, doctor → doctor). Registries fill it in
// for a command or spec that declares no domain of its own.
func Domain(name string) string {
	d, _, _ := strings.Cut(name, ":")
	return d
}

// PropertyName maps a flag name to its input property name (--code-paths → code_paths).
func PropertyName(flag string) string { return strings.ReplaceAll(flag, "-", "_") }

// FlagName maps an input property name back to its flag name (code_paths → code-paths).
func FlagName(property string) string { return strings.ReplaceAll(property, "_", "-") }

// Names maps every spelling of a set of canonical names back to the canonical name.
type Names struct {
	byKey map[string]string
	names []string
	// pack is the key of the pack name a spelling may carry as a prefix ("" for none).
	pack string
}

// NewNames builds the table. Two names that fold to the same key, a duplicate name, an
// empty name are errors. It accepts no pack prefix until [Names.WithPack].
func NewNames(canonical []string) (*Names, error) {
	n := &Names{byKey: make(map[string]string, len(canonical))}
	for _, name := range canonical {
		k := Key(name)
		if k == "" {
			return nil, fmt.Errorf("tool name %q has no letters or digits", name)
		}
		if prev, ok := n.byKey[k]; ok {
			if prev == name {
				return nil, fmt.Errorf("tool %q is registered twice", name)
			}
			return nil, fmt.Errorf("tool names %q and %q are the same name spelled differently", prev, name)
		}
		n.byKey[k] = name
		n.names = append(n.names, name)
	}
	sort.Strings(n.names)
	return n, nil
}

// WithPack returns the table accepting spellings prefixed with the pack's name
// (software-delivery:wu_create for pack software-delivery). A tool whose name folds to
// the pack's key is an error; an empty pack accepts no prefix.
func (n *Names) WithPack(pack string) (*Names, error) {
	k := Key(pack)
	if pack != "" && k == "" {
		return nil, fmt.Errorf("pack name %q has no letters or digits", pack)
	}
	if name, taken := n.byKey[k]; taken && k != "" {
		return nil, fmt.Errorf("tool name %q is reserved (it is the pack name)", name)
	}
	out := *n
	out.pack = k
	return &out, nil
}

// WithAliases returns the table also resolving aliases (alias spelling → canonical
// name), such as a command tree's aliases (notes:remove for notes:rm), in every spelling
// Resolve accepts. A canonical name always wins: an alias that folds to a name's key, to
// an unknown canonical name, or to an alias of another tool resolves to nothing, and is
// returned in dropped, sorted, for the caller to report.
func (n *Names) WithAliases(aliases map[string]string) (out *Names, dropped []string) {
	byKey := maps.Clone(n.byKey)
	spellings := map[string][]string{} // alias key → its spellings
	for alias := range aliases {
		spellings[Key(alias)] = append(spellings[Key(alias)], alias)
	}
	for k, as := range spellings {
		canon := aliases[as[0]]
		ok := k != ""
		for _, a := range as {
			ok = ok && aliases[a] == canon
		}
		if _, known := n.byKey[Key(canon)]; !known || n.byKey[Key(canon)] != canon {
			ok = false
		}
		if taken, exists := n.byKey[k]; exists {
			if taken == canon {
				continue // the name itself, spelled otherwise
			}
			ok = false
		}
		if !ok {
			dropped = append(dropped, as...)
			continue
		}
		byKey[k] = canon
	}
	sort.Strings(dropped)
	c := *n
	c.byKey = byKey
	return &c, dropped
}

// Resolve returns the canonical name for any spelling, with or without the pack prefix.
func (n *Names) Resolve(spelling string) (string, bool) {
	k := Key(spelling)
	if name, ok := n.byKey[k]; ok {
		return name, true
	}
	if n.pack == "" {
		return "", false
	}
	if rest, ok := strings.CutPrefix(k, n.pack); ok && rest != "" {
		name, ok := n.byKey[rest]
		return name, ok
	}
	return "", false
}

// All returns the canonical names, sorted.
func (n *Names) All() []string { return append([]string(nil), n.names...) }
