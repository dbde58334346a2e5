package legacy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"

	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/effect"
)

// Effects is what a command of a tree declares it does (a leaf has no Metadata of its
// own: cli.Command has none): the keys [MetaReadOnly], [MetaDestructive], [MetaIdempotent],
// [MetaOpenWorld], [MetaNetwork], [MetaRunsCode] and [MetaEffects] in one value. It is the
// light package effect's, which an adopter's program links without this package.
type Effects = effect.Declared

// MetaUndeclared (bool) marks a tree leaf that declares no effect, neither in its own
// Metadata nor in [TreeOptions.Effects]: [FromApp] then declares it destructive and open
// world (the worst case, as MCP assumes of an unannotated tool), so the default policy
// asks before it runs and no read-only profile or token reaches it; the adapter adds a
// warning saying how to declare it.
const MetaUndeclared = "cmdbridge.undeclared"

// declaresEffect reports whether meta says what the command does: any of the read-only,
// destructive or runs-code keys, true or false.
func declaresEffect(meta map[string]any) bool {
	for _, k := range []string{MetaReadOnly, MetaDestructive, MetaRunsCode} {
		if _, ok := meta[k]; ok {
			return true
		}
	}
	return false
}

// meta is e as Metadata keys; a nil value removes the key.
func effectMeta(e Effects) map[string]any {
	m := map[string]any{
		MetaReadOnly: e.ReadOnly, MetaDestructive: e.Destructive, MetaIdempotent: e.Idempotent,
		MetaOpenWorld: e.OpenWorld, MetaNetwork: e.Network, MetaRunsCode: e.RunsCode,
		MetaEffects: nil, MetaUndeclared: nil, MetaPaths: nil,
	}
	if len(e.Inputs) > 0 {
		m[MetaEffects] = append([]tool.Effect(nil), e.Inputs...)
	}
	if len(e.Paths) > 0 {
		m[MetaPaths] = maps.Clone(e.Paths)
	}
	return m
}

// ParseEffects reads the YAML form of a tree's effects: one key, effects, mapping a tool
// name or doublestar glob to what it declares (unknown keys are errors):
//
//	effects:
//	  status: {read_only: true, idempotent: true}
//	  drop: {destructive: true}
//	  "migrate:*":
//	    destructive: true
//	    inputs:                                  # tool.Effect, as in Go
//	      - {when: [{property: dry_run, is: set}], read_only: true}
func ParseEffects(data []byte) (map[string]Effects, error) {
	var doc any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("effects: %w", err)
	}
	if doc == nil {
		return nil, nil
	}
	// Through JSON, so the field names are tool.Effect's own and unknown ones fail.
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("effects: %w", err)
	}
	var out struct {
		Effects map[string]Effects `json:"effects"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("effects: %w", err)
	}
	return out.Effects, nil
}

// effectTable resolves [TreeOptions.Effects] for the leaves of one tree.
type effectTable struct {
	table map[string]Effects
	used  map[string]bool
}

func newEffectTable(table map[string]Effects) (*effectTable, error) {
	for pattern, e := range table {
		if !doublestar.ValidatePattern(pattern) {
			return nil, fmt.Errorf("effects: %q is not a tool name or doublestar glob", pattern)
		}
		if err := e.Check(); err != nil {
			return nil, fmt.Errorf("effects %s: %w", pattern, err)
		}
	}
	return &effectTable{table: table, used: map[string]bool{}}, nil
}

// overlay is what the leaf name, whose own Metadata is meta, declares, as Metadata keys
// to lay over meta: the entry naming it exactly, else what meta declares itself (no
// overlay), else the matching glob with the most literal characters, else the
// undeclared worst case. Two globs as specific as each other that declare differently
// are an error.
func (t *effectTable) overlay(name string, meta map[string]any) (map[string]any, error) {
	if e, ok := t.table[name]; ok {
		t.used[name] = true
		return effectMeta(e), nil
	}
	var best []string
	bestScore := -1
	for pattern := range t.table {
		if ok, _ := doublestar.Match(pattern, name); !ok {
			continue
		}
		t.used[pattern] = true
		switch score := literalChars(pattern); {
		case score > bestScore:
			best, bestScore = []string{pattern}, score
		case score == bestScore:
			best = append(best, pattern)
		}
	}
	if declaresEffect(meta) {
		return nil, nil
	}
	if len(best) == 0 {
		return map[string]any{MetaDestructive: true, MetaOpenWorld: true, MetaUndeclared: true}, nil
	}
	sort.Strings(best)
	for _, p := range best[1:] {
		if !reflect.DeepEqual(t.table[p], t.table[best[0]]) {
			return nil, fmt.Errorf("effects of %s: %q and %q match it as specifically and declare differently (name the tool)", name, best[0], p)
		}
	}
	return effectMeta(t.table[best[0]]), nil
}

// unused is an error naming the entries that matched no leaf: a typo must not leave a
// command undeclared silently.
func (t *effectTable) unused() error {
	var out []string
	for pattern := range t.table {
		if !t.used[pattern] {
			out = append(out, pattern)
		}
	}
	if len(out) == 0 {
		return nil
	}
	sort.Strings(out)
	return fmt.Errorf("effects for %s: no command of the tree is named so", strings.Join(out, ", "))
}

// literalChars counts the characters of a glob that are not wildcard syntax.
func literalChars(pattern string) int {
	n := 0
	for _, r := range pattern {
		if !strings.ContainsRune(`*?[]{}\,!^`, r) {
			n++
		}
	}
	return n
}

// withMeta is meta with overlay laid over it (a nil value removes the key); meta is
// never changed.
func withMeta(meta, overlay map[string]any) map[string]any {
	if len(overlay) == 0 {
		return meta
	}
	out := make(map[string]any, len(meta)+len(overlay))
	for k, v := range meta {
		out[k] = v
	}
	for k, v := range overlay {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}
