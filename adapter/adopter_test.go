package adapter

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// An adopter's program, written for these tests with plain urfave/cli v2: every flag type
// the module has, the SliceFlag wrappers, Generic values, and flag types of a third
// package. The schema, the argv builder and the app itself must agree on all of them.

// colorFlag is a third-party flag type that takes a value.
type colorFlag struct {
	Name, Usage string
	dest        *string
}

func (f *colorFlag) String() string { return "--" + f.Name }
func (f *colorFlag) Apply(set *flag.FlagSet) error {
	set.StringVar(f.dest, f.Name, "", f.Usage)
	return nil
}
func (f *colorFlag) Names() []string        { return []string{f.Name} }
func (f *colorFlag) IsSet() bool            { return false }
func (f *colorFlag) TakesValue() bool       { return true }
func (f *colorFlag) GetUsage() string       { return f.Usage }
func (f *colorFlag) GetValue() string       { return "" }
func (f *colorFlag) GetDefaultText() string { return "" }
func (f *colorFlag) GetEnvVars() []string   { return nil }

// switchFlag is a third-party flag type that takes no value.
type switchFlag struct {
	colorFlag
	on *bool
}

func (f *switchFlag) Apply(set *flag.FlagSet) error {
	set.BoolVar(f.on, f.Name, false, f.Usage)
	return nil
}
func (f *switchFlag) TakesValue() bool { return false }

// bareFlag implements only cli.Flag: nothing says whether it takes a value.
type bareFlag struct {
	name string
	dest *string
}

func (f *bareFlag) String() string                { return "--" + f.name }
func (f *bareFlag) Apply(set *flag.FlagSet) error { set.StringVar(f.dest, f.name, "", ""); return nil }
func (f *bareFlag) Names() []string               { return []string{f.name} }
func (f *bareFlag) IsSet() bool                   { return false }

// modeValue is a Generic with a meaningful default.
type modeValue struct{ v string }

func (m *modeValue) Set(s string) error { m.v = s; return nil }
func (m *modeValue) String() string     { return m.v }

// tagsValue is a Generic that accumulates: its empty String() is "[]", not a default.
type tagsValue struct{ v []string }

func (t *tagsValue) Set(s string) error { t.v = append(t.v, s); return nil }
func (t *tagsValue) String() string     { return fmt.Sprint(t.v) }

// everyFlagCommand is the adopter's command; each run stores what the app parsed in *got.
func everyFlagCommand(got *map[string]any) legacy.Command {
	return legacy.Command{Name: "adopter:every", New: func() *cli.App {
		var color, bare string
		var loud bool
		return &cli.App{
			Name:      "every",
			Usage:     "every flag type there is",
			ArgsUsage: "FILE [FILE...]",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "title", Required: true, Usage: "a string"},
				&cli.PathFlag{Name: "path", Value: "out.txt"},
				&cli.BoolFlag{Name: "force"},
				&cli.BoolFlag{Name: "verify", Value: true},
				&cli.IntFlag{Name: "count", Value: 3},
				&cli.Int64Flag{Name: "big"},
				&cli.UintFlag{Name: "small"},
				&cli.Uint64Flag{Name: "huge"},
				&cli.Float64Flag{Name: "ratio", Value: 0.5},
				&cli.DurationFlag{Name: "wait", Value: 30 * time.Second, Usage: "how long to wait"},
				&cli.TimestampFlag{Name: "since", Layout: "2006-01-02", Usage: "start day"},
				&cli.GenericFlag{Name: "mode", Value: &modeValue{"fast"}},
				&cli.GenericFlag{Name: "tags", Value: &tagsValue{}},
				&cli.StringSliceFlag{Name: "names"},
				&cli.IntSliceFlag{Name: "ints"},
				&cli.Int64SliceFlag{Name: "int64s"},
				&cli.Float64SliceFlag{Name: "floats"},
				&cli.UintSliceFlag{Name: "uints"},
				&cli.Uint64SliceFlag{Name: "uint64s"},
				&cli.MultiStringFlag{Target: &cli.StringSliceFlag{Name: "multi", Usage: "load `FILE` more"}, Value: []string{"a"}},
				&cli.MultiIntFlag{Target: &cli.IntSliceFlag{Name: "mints"}},
				&cli.MultiInt64Flag{Target: &cli.Int64SliceFlag{Name: "mint64s"}},
				&cli.MultiFloat64Flag{Target: &cli.Float64SliceFlag{Name: "mfloats"}, Value: []float64{1.25}},
				&colorFlag{Name: "color", Usage: "a `COLOR`", dest: &color},
				&switchFlag{colorFlag: colorFlag{Name: "loud"}, on: &loud},
				&bareFlag{name: "bare", dest: &bare},
				&cli.BoolFlag{Name: "json"},
			},
			Action: func(c *cli.Context) error {
				since := ""
				if ts := c.Timestamp("since"); ts != nil {
					since = ts.Format("2006-01-02")
				}
				*got = map[string]any{
					"title": c.String("title"), "path": c.Path("path"), "force": c.Bool("force"), "verify": c.Bool("verify"),
					"count": c.Int("count"), "big": c.Int64("big"), "small": c.Uint("small"), "huge": c.Uint64("huge"),
					"ratio": c.Float64("ratio"), "wait": c.Duration("wait").String(), "since": since,
					"mode": c.Generic("mode").(*modeValue).String(), "tags": c.Generic("tags").(*tagsValue).String(),
					"names": c.StringSlice("names"), "ints": c.IntSlice("ints"), "int64s": c.Int64Slice("int64s"),
					"floats": c.Float64Slice("floats"), "uints": c.UintSlice("uints"), "uint64s": c.Uint64Slice("uint64s"),
					"multi": c.StringSlice("multi"), "mints": c.IntSlice("mints"), "mint64s": c.Int64Slice("mint64s"),
					"mfloats": c.Float64Slice("mfloats"), "color": color, "loud": loud, "bare": bare,
					"file": c.Args().Slice(), "json": c.Bool("json"),
				}
				return nil
			},
		}
	}}
}

// parseBack builds argv from input and runs the app on it, returning what it parsed.
func parseBack(t *testing.T, c legacy.Command, got *map[string]any, input string) map[string]any {
	t.Helper()
	argv, err := Argv(c, json.RawMessage(input))
	require.NoError(t, err, input)
	*got = nil
	app := c.New()
	app.ExitErrHandler = func(*cli.Context, error) {}
	require.NoError(t, app.Run(append([]string{c.Name}, argv...)), "argv %q", argv)
	require.NotNil(t, *got, "the action ran")
	return *got
}

func TestAdopterSchemaCoversEveryUrfaveFlagType(t *testing.T) {
	var got map[string]any
	c := everyFlagCommand(&got)
	s, err := Schema(c)
	require.NoError(t, err)
	props := s.Properties
	for prop, want := range map[string]string{
		"title": "string", "path": "string", "force": "boolean", "verify": "boolean", "count": "integer", "big": "integer",
		"small": "integer", "huge": "integer", "ratio": "number", "wait": "string", "since": "string",
		"mode": "string", "tags": "string", "names": "array/string", "ints": "array/integer",
		"int64s": "array/integer", "floats": "array/number", "uints": "array/integer", "uint64s": "array/integer",
		"multi": "array/string", "mints": "array/integer", "mint64s": "array/integer", "mfloats": "array/number",
		"color": "string", "loud": "boolean", "bare": "string", "file": "array/string",
	} {
		require.Contains(t, props, prop)
		typ := props[prop].Type
		if props[prop].Items != nil {
			typ += "/" + props[prop].Items.Type
		}
		assert.Equal(t, want, typ, prop)
	}
	assert.NotContains(t, props, "json")
	assert.Equal(t, []string{"title", "file"}, s.Required)
	assert.Equal(t, 1, *props["file"].MinItems, "FILE [FILE...] needs at least one")

	defaults := map[string]string{}
	for name, p := range props {
		if p.Default != nil {
			defaults[name] = string(p.Default)
		}
	}
	assert.Equal(t, map[string]string{
		"path": `"out.txt"`, "verify": `true`, "count": `3`, "ratio": `0.5`, "wait": `"30s"`, "mode": `"fast"`,
		"multi": `["a"]`, "mfloats": `[1.25]`,
	}, defaults, "a Generic whose String() is [] has no default")

	assert.Equal(t, "how long to wait. A Go duration such as 90s, 5m or 1h30m.", props["wait"].Description)
	assert.Equal(t, "start day. A time in the Go layout 2006-01-02.", props["since"].Description)
	assert.Equal(t, "load FILE more", props["multi"].Description, "a wrapper's usage is its target's, backticks stripped")
	assert.Equal(t, "a COLOR", props["color"].Description)

	w := Warnings(c)
	require.Len(t, w, 3)
	assert.Equal(t, "flag --color: flag type *adapter.colorFlag is not a urfave/cli v2 type; it is a string passed as --name=value", w[0])
	assert.Equal(t, "flag --loud: flag type *adapter.switchFlag is not a urfave/cli v2 type; it takes no value, so it is a boolean", w[1])
	assert.Contains(t, w[2], "flag --bare: flag type *adapter.bareFlag")

	spec, err := Spec(c)
	require.NoError(t, err)
	require.Len(t, spec.Warnings, len(w)+2)
	assert.Equal(t, w, spec.Warnings[:len(w)])
	// Its input file is named like a path, path is a PathFlag, and it declares none.
	assert.Contains(t, spec.Warnings[len(w)], "input file is named like a path")
	assert.Contains(t, spec.Warnings[len(w)+1], "input path is declared a file or directory by the program")
	b, err := json.Marshal(spec)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"warnings":["flag --color:`)
}

// Input → argv → the app parses it back to the same values, for every flag type.
func TestAdopterArgvRoundTripsEveryFlagType(t *testing.T) {
	var got map[string]any
	c := everyFlagCommand(&got)
	cases := []struct{ name, input, want string }{
		{
			name: "every value",
			input: `{"title":"--t","path":"p q","force":true,"verify":false,"count":7,"big":-9000000000,"small":1,"huge":18446744073709551615,
				"ratio":2.5,"wait":"1h30m","since":"2024-01-02","mode":"slow","tags":"x","names":["n1","-n2"],"ints":[1,-2],
				"int64s":[3],"floats":[0.25],"uints":[4],"uint64s":[5],"multi":["m1","-m2"],"mints":[6,7],"mint64s":[-8],
				"mfloats":[1.5,2],"color":"red","loud":true,"bare":"-b","file":["f1","-f2"]}`,
			want: `{"title":"--t","path":"p q","force":true,"verify":false,"count":7,"big":-9000000000,"small":1,"huge":18446744073709551615,
				"ratio":2.5,"wait":"1h30m0s","since":"2024-01-02","mode":"slow","tags":"[x]","names":["n1","-n2"],"ints":[1,-2],
				"int64s":[3],"floats":[0.25],"uints":[4],"uint64s":[5],"multi":["m1","-m2"],"mints":[6,7],"mint64s":[-8],
				"mfloats":[1.5,2],"color":"red","loud":true,"bare":"-b","file":["f1","-f2"],"json":true}`,
		},
		{
			name:  "defaults are what the app uses when the property is absent",
			input: `{"title":"t","file":["-f"]}`,
			want: `{"title":"t","path":"out.txt","force":false,"verify":true,"count":3,"big":0,"small":0,"huge":0,"ratio":0.5,"wait":"30s",
				"since":"","mode":"fast","tags":"[]","names":null,"ints":null,"int64s":null,"floats":null,"uints":null,
				"uint64s":null,"multi":["a"],"mints":[],"mint64s":[],"mfloats":[1.25],"color":"","loud":false,"bare":"",
				"file":["-f"],"json":true}`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(parseBack(t, c, &got, tc.input))
			require.NoError(t, err)
			assert.JSONEq(t, tc.want, string(b))
		})
	}
	s, err := Schema(c)
	require.NoError(t, err)
	got = nil
	absent := parseBack(t, c, &got, `{"title":"t","file":["f"]}`)
	for prop, p := range s.Properties {
		if p.Default == nil {
			continue
		}
		b, err := json.Marshal(absent[prop])
		require.NoError(t, err)
		assert.JSONEq(t, string(p.Default), string(b), "the schema's default of %s is the app's", prop)
	}
}

func TestAdopterArgvRefusesACommaTheAppWouldSplit(t *testing.T) {
	var got map[string]any
	c := everyFlagCommand(&got)
	for _, prop := range []string{"names", "multi"} {
		_, err := Argv(c, json.RawMessage(`{"title":"t","file":["f"],"`+prop+`":["ok","a,b"]}`))
		assert.ErrorContains(t, err, `property "`+prop+`": element 1 holds a comma`)
	}
	// An app that disables the separator takes the comma as written.
	split := legacy.Command{Name: "adopter:nosplit", New: func() *cli.App {
		return &cli.App{DisableSliceFlagSeparator: true, Flags: []cli.Flag{&cli.StringSliceFlag{Name: "names"}, &cli.BoolFlag{Name: "json"}},
			Action: func(c *cli.Context) error { got = map[string]any{"names": c.StringSlice("names")}; return nil }}
	}}
	assert.Equal(t, map[string]any{"names": []string{"a,b"}}, parseBack(t, split, &got, `{"names":["a,b"]}`))
}

// positionalCommand has two flags and the given usage texts; each run stores the flags
// and the positionals the app parsed in *got.
func positionalCommand(name, argsUsage, usageText string, extra []cli.Flag, got *map[string]any) legacy.Command {
	return legacy.Command{Name: "adopter:" + name, New: func() *cli.App {
		return &cli.App{
			Name: name, HelpName: "mytool " + name, ArgsUsage: argsUsage, UsageText: usageText,
			Flags: append([]cli.Flag{
				&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}},
				&cli.BoolFlag{Name: "dry-run"},
				&cli.BoolFlag{Name: "json"},
			}, extra...),
			Action: func(c *cli.Context) error {
				*got = map[string]any{"yes": c.Bool("yes"), "dry_run": c.Bool("dry-run"), "args": c.Args().Slice()}
				return nil
			},
		}
	}}
}

func TestAdopterPositionalForms(t *testing.T) {
	cases := []struct {
		name, argsUsage, usageText string
		extra                      []cli.Flag
		props, required            []string // positional properties only
		typ                        string   // of the first positional
		enum                       []any
		description                string // of the first positional, when it has one
		warning                    string // "" for none
		input                      string
		args                       []string
		yes                        bool
	}{
		{name: "variadic", argsUsage: "FILE [FILE...]", props: []string{"file"}, required: []string{"file"}, typ: "array",
			input: `{"file":["-a","b"]}`, args: []string{"-a", "b"}},
		{name: "variadic-angled", argsUsage: "<SRC> <FILE> [<FILE>...]", props: []string{"src", "file"}, required: []string{"src", "file"}, typ: "string",
			input: `{"src":"s","file":["a","b"]}`, args: []string{"s", "a", "b"}},
		{name: "alternatives", argsUsage: "<project>|<user>/<project>", props: []string{"project"}, required: []string{"project"}, typ: "string",
			description: "Any of the forms <project> or <user>/<project>.", input: `{"project":"me/p"}`, args: []string{"me/p"}},
		{name: "alternatives-compound-first", argsUsage: "[<user>/<project>|<ID>]", props: []string{"arg"}, typ: "string",
			description: "Any of the forms <user>/<project> or <ID>.", input: `{"arg":"42"}`, args: []string{"42"}},
		{name: "literal-alternatives", argsUsage: "start|stop", props: []string{"arg"}, required: []string{"arg"}, typ: "string",
			enum: []any{"start", "stop"}, description: "One of: start, stop.", input: `{"arg":"stop"}`, args: []string{"stop"}},
		{name: "flags-in-usage", argsUsage: "[-y] [--dry-run] [--out FILE] <dir>", props: []string{"dir"}, required: []string{"dir"}, typ: "string",
			input: `{"yes":true,"dir":"d"}`, args: []string{"d"}, yes: true},
		{name: "usage-text", usageText: "mytool usage-text [command options] <src> [<dst>]\n\nCopies src to dst.", props: []string{"src", "dst"},
			required: []string{"src"}, typ: "string", input: `{"src":"a","dst":"b"}`, args: []string{"a", "b"}},
		{name: "usage-text-by-name", usageText: "usage-text-by-name [-y] <src>", props: []string{"src"}, required: []string{"src"}, typ: "string",
			input: `{"src":"--x"}`, args: []string{"--x"}},
		{name: "args-usage-wins", argsUsage: "<ID>", usageText: "mytool args-usage-wins <OTHER> <MORE>", props: []string{"id"}, required: []string{"id"}, typ: "string",
			input: `{"id":"1"}`, args: []string{"1"}},
		{name: "unmappable", argsUsage: "<a> {b,c} ...", props: []string{"args"}, typ: "array",
			description: "the command's positional arguments, in order (ArgsUsage: <a> {b,c} ...)",
			warning:     `ArgsUsage "<a> {b,c} ..." is outside the positional grammar (token "{b,c}" is not`,
			input:       `{"args":["-y","b"]}`, args: []string{"-y", "b"}},
		{name: "unmappable-order", argsUsage: "[<A>] <B>", props: []string{"args"}, typ: "array",
			warning: `ArgsUsage "[<A>] <B>" is outside the positional grammar (required token "<B>" follows an optional one)`,
			input:   `{"args":["x"]}`, args: []string{"x"}},
		{name: "unmappable-usage-text", usageText: "mytool unmappable-usage-text <a> (b) ", props: []string{"args"}, typ: "array",
			warning: `UsageText "<a> (b)" is outside the positional grammar`, input: `{"args":["1","2","3"]}`, args: []string{"1", "2", "3"}},
		{name: "undeclared", props: []string{"args"}, typ: "array",
			description: "the command's positional arguments, in order (its usage does not declare them)",
			warning:     "positionals undeclared: args is passed after --; declare ArgsUsage to get named properties",
			input:       `{"args":["users","b"]}`, args: []string{"users", "b"}},
		{name: "undeclared-args-flag", extra: []cli.Flag{&cli.StringFlag{Name: "args"}}, props: []string{"positional_args"}, typ: "array",
			warning: "positionals undeclared: positional_args is passed after --", input: `{"positional_args":["z"]}`, args: []string{"z"}},
		{name: "unmappable-args-flag", argsUsage: "<a>|", extra: []cli.Flag{&cli.StringFlag{Name: "args"}}, props: []string{"positional_args"}, typ: "array",
			warning: "the positionals are one list positional_args, passed verbatim", input: `{"positional_args":["z"]}`, args: []string{"z"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got map[string]any
			c := positionalCommand(tc.name, tc.argsUsage, tc.usageText, tc.extra, &got)
			s, err := Schema(c)
			require.NoError(t, err)
			flags := []string{"yes", "dry_run"}
			if tc.extra != nil {
				flags = append(flags, "args")
			}
			assert.Equal(t, append(flags, tc.props...), s.PropertyOrder)
			assert.Equal(t, tc.required, s.Required)
			first := s.Properties[tc.props[0]]
			assert.Equal(t, tc.typ, first.Type)
			assert.Equal(t, tc.enum, first.Enum)
			if tc.description != "" {
				assert.Equal(t, tc.description, first.Description)
			}
			assertOneWarning(t, Warnings(c), tc.warning)
			back := parseBack(t, c, &got, tc.input)
			assert.Equal(t, tc.args, back["args"], "the positionals the app sees")
			assert.Equal(t, tc.yes, back["yes"], "a positional never becomes a flag")
		})
	}
}

// A command that says it takes no positionals gets none and no warning; a tree leaf
// with subcommands of its own gets none and a warning, since urfave/cli would run the
// subcommand a first positional names.
func TestAdopterPositionalsDeclaredNone(t *testing.T) {
	cases := []struct {
		name, argsUsage, usageText string
		meta                       map[string]any
		warning                    string
	}{
		{name: "blank-args-usage", argsUsage: " "},
		{name: "usage-text-without-positionals", usageText: "mytool usage-text-without-positionals [command options]"},
		{name: "metadata", meta: map[string]any{legacy.MetaNoArgs: true}},
		{name: "subcommands", meta: map[string]any{legacy.MetaSubcommands: []string{"add", "a"}},
			warning: "positionals undeclared and not offered: a first positional naming a subcommand (add, a) would run it instead"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got map[string]any
			c := positionalCommand(tc.name, tc.argsUsage, tc.usageText, nil, &got)
			build := c.New
			c.New = func() *cli.App { a := build(); a.Metadata = tc.meta; return a }
			s, err := Schema(c)
			require.NoError(t, err)
			assert.Equal(t, []string{"yes", "dry_run"}, s.PropertyOrder)
			assertOneWarning(t, Warnings(c), tc.warning)
			_, err = Argv(c, json.RawMessage(`{"args":["x"]}`))
			assert.ErrorContains(t, err, `unknown input property "args"`)
		})
	}
}

// The args of an undeclared usage are operands like any positional: an item beginning
// with "-" is refused unless legacy.MetaArgLeadingDash lists args.
func TestAdopterUndeclaredArgsAreOperands(t *testing.T) {
	for _, dash := range []bool{false, true} {
		var got map[string]any
		c := positionalCommand("undeclared", "", "", nil, &got)
		if dash {
			build := c.New
			c.New = func() *cli.App {
				a := build()
				a.Metadata = map[string]any{legacy.MetaArgLeadingDash: []string{"args"}}
				return a
			}
		}
		s, err := Schema(c)
		require.NoError(t, err)
		resolved, err := s.Resolve(nil)
		require.NoError(t, err)
		err = resolved.Validate(map[string]any{"args": []any{"a", "-x"}})
		if dash {
			assert.NoError(t, err, "listed in MetaArgLeadingDash")
			assert.Equal(t, []string{"a", "-x"}, parseBack(t, c, &got, `{"args":["a","-x"]}`)["args"])
		} else {
			assert.Error(t, err, "an item beginning with - is refused")
			assert.NoError(t, resolved.Validate(map[string]any{"args": []any{"a", "-"}}), "a lone - is stdin")
		}
	}
}

// A fallback spec must still pass the schema's own checks: resolve it and validate the
// inputs the round trip used.
func TestAdopterFallbackSchemaResolves(t *testing.T) {
	var got map[string]any
	for _, c := range []legacy.Command{
		everyFlagCommand(&got),
		positionalCommand("u", "<a> {b,c}", "", nil, &got),
	} {
		s, err := Schema(c)
		require.NoError(t, err)
		r, err := s.Resolve(nil)
		require.NoError(t, err, c.Name)
		var in map[string]any
		require.NoError(t, json.Unmarshal([]byte(map[string]string{
			"adopter:every": `{"title":"t","file":["f"],"multi":["x"],"color":"red","loud":true}`,
			"adopter:u":     `{"args":["x","-"]}`,
		}[c.Name]), &in))
		assert.NoError(t, r.Validate(in), c.Name)
		assert.Error(t, r.Validate(map[string]any{"nope": 1}), c.Name)
		if c.Name == "adopter:u" {
			assert.Error(t, r.Validate(map[string]any{"args": []any{"x", "-x"}}), "the fallback's items are operands")
		}
	}
	assert.True(t, strings.HasPrefix(Warnings(positionalCommand("u", "<a> {b,c}", "", nil, &got))[0], "ArgsUsage"))
}

// Flags that cannot be inputs are left out with a warning, and the rest still maps: a
// second flag for a property already taken, and a wrapper whose methods panic (a
// MultiStringFlag without its Target).
func TestAdopterFlagsThatCannotBeInputs(t *testing.T) {
	var got map[string]any
	c := legacy.Command{Name: "adopter:clash", New: func() *cli.App {
		var dry bool
		return &cli.App{
			ArgsUsage: "<ID>",
			Flags: []cli.Flag{
				&cli.BoolFlag{Name: "dry-run", Destination: &dry},
				&cli.StringFlag{Name: "dry_run"},
				&cli.MultiStringFlag{},
				&cli.BoolFlag{Name: "json"},
			},
			Action: func(c *cli.Context) error {
				got = map[string]any{"dry": dry, "id": c.Args().First()}
				return nil
			},
		}
	}}
	s, err := Schema(c)
	require.NoError(t, err)
	assert.Equal(t, []string{"dry_run", "id"}, s.PropertyOrder)
	assert.Equal(t, "boolean", s.Properties["dry_run"].Type, "the first flag is the input")
	w := Warnings(c)
	require.Len(t, w, 2)
	assert.Equal(t, `flag --dry_run: property "dry_run" is taken by an earlier flag, so this flag is not an input`, w[0])
	assert.Contains(t, w[1], "flag 3 (*cli.SliceFlag[*github.com/urfave/cli/v2.StringSliceFlag,[]string,string]): reading the flag panicked")
	argv, err := Argv(c, json.RawMessage(`{"dry_run":true,"id":"x"}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"--json", "--dry-run", "--", "x"}, argv)
	assert.Equal(t, map[string]any{"dry": true, "id": "x"}, parseBack(t, legacy.Command{Name: c.Name, New: func() *cli.App {
		app := c.New()
		app.Flags = append(app.Flags[:2:2], app.Flags[3]) // the app itself cannot run a nil Target
		return app
	}}, &got, `{"dry_run":true,"id":"x"}`))
}

// hexValue is an adopter's cli.Generic value with a form: it checks it in Set and says
// it in the schema (legacy.Constrained).
type hexValue struct{ v string }

func (h *hexValue) Set(s string) error {
	if strings.Trim(s, "0123456789abcdef") != "" || s == "" {
		return fmt.Errorf("not hex: %q", s)
	}
	h.v = s
	return nil
}
func (h *hexValue) String() string                 { return h.v }
func (h *hexValue) Constrain(s *jsonschema.Schema) { s.Pattern = "^[0-9a-f]+$" }

// A flag's own checks reach the schema when the flag says them (legacy.Constrain, or a
// Generic value implementing legacy.Constrained), so the one input check every lane
// goes through refuses what the program would refuse, naming the property; a value the
// schema accepts, the program accepts too.
func TestAdopterFlagChecksReachTheSchema(t *testing.T) {
	ran := 0
	c := legacy.Command{Name: "adopter:checks", New: func() *cli.App {
		inRange := func(_ *cli.Context, v int) error {
			if v < 1 || v > 10 {
				return fmt.Errorf("--limit must be from 1 to 10")
			}
			return nil
		}
		tickets := func(_ *cli.Context, vs []string) error {
			for _, v := range vs {
				if !strings.HasPrefix(v, "T-") {
					return fmt.Errorf("--ticket %q is not T-<n>", v)
				}
			}
			return nil
		}
		return &cli.App{
			Name:      "checks",
			ArgsUsage: "[MODE]",
			Metadata:  map[string]any{legacy.MetaArgChoices: map[string][]string{"MODE": {"fast", "slow"}}},
			Flags: []cli.Flag{
				legacy.Constrain(&cli.IntFlag{Name: "limit", Value: 5, Action: inRange}, func(s *jsonschema.Schema) {
					s.Minimum, s.Maximum = jsonschema.Ptr(1.0), jsonschema.Ptr(10.0)
				}),
				legacy.Constrain(&cli.StringSliceFlag{Name: "ticket", Action: tickets}, func(s *jsonschema.Schema) {
					s.Items.Pattern = "^T-[0-9]+$"
				}),
				&cli.GenericFlag{Name: "color", Value: &hexValue{}},
			},
			Action: func(c *cli.Context) error {
				if m := c.Args().First(); m != "" && m != "fast" && m != "slow" {
					return fmt.Errorf("MODE %q is not fast or slow", m)
				}
				ran++
				return nil
			},
		}
	}}
	spec, err := Spec(c)
	require.NoError(t, err)
	p := spec.InputSchema.Properties
	assert.Equal(t, 1.0, *p["limit"].Minimum)
	assert.Equal(t, 10.0, *p["limit"].Maximum)
	assert.Equal(t, "^T-[0-9]+$", p["ticket"].Items.Pattern)
	assert.Equal(t, "^[0-9a-f]+$", p["color"].Pattern)
	assert.Equal(t, []any{"fast", "slow"}, p["mode"].Enum, "a positional's words (legacy.MetaArgChoices)")
	assert.Empty(t, spec.Warnings)

	for input, path := range map[string]string{
		`{"limit":0}`:                  "/limit",
		`{"limit":11}`:                 "/limit",
		`{"ticket":["T-1","X-2"]}`:     "/ticket/1",
		`{"color":"fg"}`:               "/color",
		`{"limit":3,"color":"red"}`:    "/color",
		`{"ticket":["T-1"],"limit":0}`: "/limit",
		`{"mode":"medium"}`:            "/mode",
	} {
		v, _, bad := tool.DecodeInput(json.RawMessage(input))
		require.Nil(t, bad)
		out := spec.CheckInput(v)
		require.NotNil(t, out, input)
		assert.Equal(t, tool.CodeInvalidInput, out.Code, input)
		assert.Equal(t, path, out.Details.(map[string]any)["path"], input)
		// The program refuses it too.
		argv, err := Argv(c, json.RawMessage(input))
		require.NoError(t, err)
		app := c.New()
		app.ExitErrHandler = func(*cli.Context, error) {}
		assert.Error(t, app.Run(append([]string{c.Name}, argv...)), input)
	}
	assert.Zero(t, ran, "no refused input reached the action")
	for _, input := range []string{`{}`, `{"limit":10,"ticket":["T-1","T-22"],"color":"c0ffee","mode":"slow"}`} {
		v, _, _ := tool.DecodeInput(json.RawMessage(input))
		assert.Nil(t, spec.CheckInput(v), input)
		argv, err := Argv(c, json.RawMessage(input))
		require.NoError(t, err)
		require.NoError(t, c.New().Run(append([]string{c.Name}, argv...)), input)
	}
	assert.Equal(t, 2, ran)
}

// TestNoSecretBecomesADefault: a flag whose value its environment variable (or its file)
// gave it (urfave/cli writes it into the flag's Value when a running app applies it)
// publishes no default; its neighbour, left alone, keeps its own.
func TestNoSecretBecomesADefault(t *testing.T) {
	t.Setenv("ADOPTER_TEST_URL", "postgres://admin:s3cret@db/prod")
	secret := t.TempDir() + "/token"
	require.NoError(t, os.WriteFile(secret, []byte("s3cret-token"), 0o600))
	c := legacy.Command{Name: "adopter:secret", New: func() *cli.App {
		return &cli.App{Name: "secret", Flags: []cli.Flag{
			&cli.StringFlag{Name: "url", Value: "postgres://admin:s3cret@db/prod", EnvVars: []string{"ADOPTER_TEST_URL"}},
			&cli.StringFlag{Name: "token", Value: "s3cret-token", FilePath: secret},
			&cli.StringFlag{Name: "dir", Value: "migrations", EnvVars: []string{"ADOPTER_TEST_UNSET"}},
		}, Action: func(*cli.Context) error { return nil }}
	}}
	spec, err := Spec(c)
	require.NoError(t, err)
	raw, err := json.Marshal(spec.InputSchema)
	require.NoError(t, err)
	assert.NotContains(t, string(raw), "s3cret")
	assert.Contains(t, string(raw), `"default":"migrations"`)
}

// assertOneWarning: no warning when want is empty, else exactly one, containing want.
func assertOneWarning(t *testing.T, warnings []string, want string) {
	t.Helper()
	if want == "" {
		assert.Empty(t, warnings)
		return
	}
	require.Len(t, warnings, 1)
	assert.Contains(t, warnings[0], want)
}
