package all_test

import (
	"context"
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// TestSchemaRulesAgreeWithTheCommand: for every command whose schema carries rules
// between inputs (required properties, the forbidden combinations under "not"), the
// inputs giving none, each one and each pair of the properties those rules name are
// checked against the schema and run on the adapter lane in an empty directory. The
// schema refuses an input exactly when the command answers USAGE for it: hosts and the
// kernel refuse what the command would refuse, and nothing it would accept. (A USAGE
// about a value, "invalid value …", says the test picked a bad value and is skipped.)
func TestSchemaRulesAgreeWithTheCommand(t *testing.T) {
	compared, withRules := 0, 0
	for _, c := range commands.All() {
		s, err := adapter.Schema(c)
		require.NoError(t, err)
		if s.Not == nil && len(s.Required) == 0 {
			continue
		}
		withRules++
		n, refused, accepted := agree(t, c, s, subsets(ruleProps(s), 3))
		compared += n
		assert.Positive(t, refused, "%s: no refused input was compared", c.Name)
		if s.Not != nil {
			assert.Positive(t, accepted, "%s: no accepted input was compared", c.Name)
		}
	}
	assert.GreaterOrEqual(t, withRules, 20, "commands with rules")
	t.Logf("%d inputs compared over %d commands", compared, withRules)
}

// TestNoUndeclaredRule: every command, given its required properties and none, any
// one or any two of its other properties, answers USAGE exactly when its schema refuses the input: a rule the
// command enforces and its schema does not carry would show here.
func TestNoUndeclaredRule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every command a few hundred times")
	}
	compared := 0
	for _, c := range commands.All() {
		s, err := adapter.Schema(c)
		require.NoError(t, err)
		props := make([]string, 0, len(s.Properties))
		for p := range s.Properties {
			props = append(props, p)
		}
		sort.Strings(props)
		n, _, _ := agree(t, c, s, subsets(props, 2), s.Required...)
		compared += n
	}
	assert.Greater(t, compared, 1000)
	t.Logf("%d inputs compared over %d commands", compared, len(commands.All()))
}

// agree runs c on the adapter lane in an empty directory with each input made of the
// property sets and checks the schema refuses exactly the inputs c answers USAGE for.
// The base properties are given in every input.
func agree(t *testing.T, c legacy.Command, s *jsonschema.Schema, sets [][]string, base ...string) (compared, refused, accepted int) {
	t.Helper()
	res, err := s.Resolve(nil)
	require.NoError(t, err)
	dir := t.TempDir()
	for _, set := range sets {
		input := map[string]any{}
		for _, p := range append(append([]string(nil), base...), set...) {
			input[p] = sample(s, p)
		}
		raw, err := json.Marshal(input)
		require.NoError(t, err)
		argv, err := adapter.Argv(c, raw)
		require.NoError(t, err)
		out := adapter.ToOutput(adapter.Run(context.Background(), c, argv, adapter.Config{Dir: dir, Env: pinnedEnv(dir)}))
		usage := out.Error != nil && out.Error.Code == tool.CodeUsage
		if usage && strings.HasPrefix(out.Error.Message, "invalid value") {
			continue
		}
		var v any
		require.NoError(t, json.Unmarshal(raw, &v))
		schemaOK := res.Validate(v) == nil
		msg := ""
		if out.Error != nil {
			msg = out.Error.Code + " " + out.Error.Message
		}
		assert.Equal(t, !usage, schemaOK, "%s %s: schema valid=%v, command: %s", c.Name, raw, schemaOK, msg)
		compared++
		if schemaOK {
			accepted++
		} else {
			refused++
		}
	}
	return compared, refused, accepted
}

// ruleProps are the required properties and those the forbidden combinations name.
func ruleProps(s *jsonschema.Schema) []string {
	seen := map[string]bool{}
	for _, p := range s.Required {
		seen[p] = true
	}
	var walk func(*jsonschema.Schema)
	walk = func(x *jsonschema.Schema) {
		if x == nil {
			return
		}
		for _, p := range x.Required {
			seen[p] = true
		}
		for p := range x.Properties {
			seen[p] = true
		}
		walk(x.Not)
		for _, y := range x.AnyOf {
			walk(y)
		}
	}
	walk(s.Not)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// subsets are the subsets of props with at most max elements, in order.
func subsets(props []string, max int) [][]string {
	out := [][]string{{}}
	var grow func(prefix []string, from int)
	grow = func(prefix []string, from int) {
		if len(prefix) == max {
			return
		}
		for i := from; i < len(props); i++ {
			set := append(append([]string(nil), prefix...), props[i])
			out = append(out, set)
			grow(set, i+1)
		}
	}
	grow(nil, 0)
	return out
}

// sample is a value of property p that its command accepts as a value: the enum value a
// rule names (wu:recover's reset), else the first enum value, else one of its type.
func sample(s *jsonschema.Schema, p string) any {
	ps := s.Properties[p]
	if s.Not != nil {
		for _, r := range s.Not.AnyOf {
			if rp := r.Properties[p]; rp != nil && len(rp.Enum) > 0 {
				return rp.Enum[0]
			}
		}
	}
	if len(ps.Enum) > 0 {
		return ps.Enum[0]
	}
	switch ps.Type {
	case "boolean":
		return true
	case "integer":
		return 1
	case "array":
		return []any{fit(ps.Items, word(ps.Items.Description+" "+ps.Description))}
	}
	return fit(ps, word(ps.Description))
}

// fit makes w a value the property's own keywords accept (its length, its form), so
// that only the rules between properties decide whether the schema refuses an input.
func fit(ps *jsonschema.Schema, w string) string {
	if ps.Pattern != "" && !regexp.MustCompile(ps.Pattern).MatchString(w) {
		for _, v := range []string{"software_delivery.x"} {
			if regexp.MustCompile(ps.Pattern).MatchString(v) {
				w = v
			}
		}
	}
	if ps.MinLength != nil {
		for utf8.RuneCountInString(w) < *ps.MinLength {
			w += "x"
		}
	}
	return w
}

// word picks a string of the form a description asks for.
func word(desc string) string {
	switch {
	case strings.Contains(desc, "mem-"):
		return "mem-1a2b"
	case strings.Contains(desc, "30m"):
		return "30m"
	case strings.Contains(desc, "YYYY-MM-DD"):
		return "2026-01-01"
	}
	return "WU-1"
}
