package apptree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"
)

func isBridge(c *cli.Command) bool { return c.Name == "bridge" }

// roundTrip is Describe → json.Marshal → json.Unmarshal.
func roundTrip(t *testing.T, app *cli.App, skip func(*cli.Command) bool) *Tree {
	t.Helper()
	b, err := json.Marshal(Describe(app, skip))
	require.NoError(t, err)
	var tree Tree
	require.NoError(t, json.Unmarshal(b, &tree))
	return &tree
}

func noopActions(path []string) cli.ActionFunc { return noop }

// forgetUnknown clears what says a flag is of a program's own type.
func forgetUnknown(fs []Flag) {
	for i := range fs {
		fs[i].Unknown = ""
	}
}

func TestRoundTripFields(t *testing.T) {
	orig := fixture(nil)
	tree := roundTrip(t, orig, nil)
	require.Equal(t, Format, tree.Format)
	rebuilt := Build(tree, noopActions)

	compareApps(t, orig, rebuilt)

	// Describing the rebuilt app gives the same description, except that the
	// program's own flag types are now GenericFlag/BoolFlag: no warnings, and no
	// flag says it is of an unknown type.
	want := *tree
	want.Warnings = nil
	want.Commands = slices.Clone(want.Commands)
	var forget func(cs []Command)
	forget = func(cs []Command) {
		for i := range cs {
			cs[i].Flags = slices.Clone(cs[i].Flags)
			forgetUnknown(cs[i].Flags)
			cs[i].Subcommands = slices.Clone(cs[i].Subcommands)
			forget(cs[i].Subcommands)
		}
	}
	want.Flags = slices.Clone(want.Flags)
	forgetUnknown(want.Flags)
	forget(want.Commands)
	require.Equal(t, &want, roundTrip(t, rebuilt, nil))

	// Without flags of the program's own types, exactly the same.
	orig = withoutCustomFlags(fixture(nil))
	tree = roundTrip(t, orig, nil)
	require.Empty(t, tree.Warnings)
	rebuilt = Build(tree, noopActions)
	compareApps(t, orig, rebuilt)
	require.Equal(t, tree, roundTrip(t, rebuilt, nil))
}

func withoutCustomFlags(app *cli.App) *cli.App {
	strip := func(fs []cli.Flag) (out []cli.Flag) {
		for _, f := range fs {
			switch f.(type) {
			case *levelFlag, *switchFlag:
				continue
			}
			out = append(out, f)
		}
		return out
	}
	var walk func(cs []*cli.Command)
	walk = func(cs []*cli.Command) {
		for _, c := range cs {
			c.Flags = strip(c.Flags)
			walk(c.Subcommands)
		}
	}
	app.Flags = strip(app.Flags)
	walk(app.Commands)
	return app
}

func TestNilValues(t *testing.T) {
	orig := &cli.App{Name: "x", Flags: []cli.Flag{
		&cli.GenericFlag{Name: "g"},
		&cli.GenericFlag{Name: "e", Value: &enumValue{}},
		&cli.TimestampFlag{Name: "t", Value: &cli.Timestamp{}},
		&cli.TimestampFlag{Name: "n"},
		&cli.StringSliceFlag{Name: "s"},
		&cli.IntSliceFlag{Name: "i"},
		&cli.Int64SliceFlag{Name: "i64"},
		&cli.UintSliceFlag{Name: "u"},
		&cli.Uint64SliceFlag{Name: "u64"},
		&cli.Float64SliceFlag{Name: "f", Value: cli.NewFloat64Slice()},
	}}
	tree := roundTrip(t, orig, nil)
	rebuilt := Build(tree, nil)
	compareApps(t, orig, rebuilt)
	require.Equal(t, tree, roundTrip(t, rebuilt, nil))
	require.Equal(t, []string{}, *tree.Flags[1].Choices)
}

func TestAppFreshEachCall(t *testing.T) {
	tree := roundTrip(t, fixture(nil), nil)
	a, b := Build(tree, nil), Build(tree, nil)
	require.NotSame(t, a, b)
	require.NotSame(t, a.Commands[0], b.Commands[0])
	require.NotSame(t, a.Flags[0], b.Flags[0])
}

func TestActions(t *testing.T) {
	tree := roundTrip(t, fixture(nil), nil)
	var paths []string
	app := Build(tree, func(path []string) cli.ActionFunc {
		paths = append(paths, strings.Join(path, "/")+fmt.Sprint(path == nil))
		return noop
	})
	require.Equal(t, []string{"true", "dbfalse", "db/migrate/upfalse", "db/migrate/downfalse", "db/shellfalse", "secretfalse", "servefalse"}, paths)
	require.NotNil(t, app.Action)
	require.Nil(t, app.Command("bridge").Action)
	require.Nil(t, app.Command("db").Command("migrate").Action)
	require.NotNil(t, app.Command("db").Action)
}

func TestHelpIdentical(t *testing.T) {
	tree := roundTrip(t, fixture(nil), nil)
	var paths [][]string
	var walk func(prefix []string, cs []Command)
	walk = func(prefix []string, cs []Command) {
		for _, c := range cs {
			p := append(append([]string(nil), prefix...), c.Name)
			paths = append(paths, p)
			walk(p, c.Subcommands)
		}
	}
	walk(nil, tree.Commands)
	require.Len(t, paths, 8)

	run := func(app *cli.App, args []string) string {
		var out bytes.Buffer
		app.Writer, app.ErrWriter, app.HelpName = &out, &out, "prog"
		err := app.Run(append([]string{"prog"}, args...))
		return fmt.Sprintf("%s\nerr: %v", out.String(), err)
	}
	cases := [][]string{{"--help"}, {"help"}, {"--version"}}
	for _, p := range paths {
		cases = append(cases, append(append([]string(nil), p...), "--help"))
		cases = append(cases, append([]string{"help"}, p...))
	}
	for _, args := range cases {
		want := run(fixture(nil), args)
		got := run(Build(tree, noopActions), args)
		require.Equal(t, want, got, "prog %s", strings.Join(args, " "))
	}
	// The help shows defaults that must survive exactly.
	root := run(fixture(nil), []string{"--help"})
	for _, s := range []string{"18446744073709551615", "-42", "1h30m0.000000003s", "2024-03-31 03:30:15.123456789 +0200 CEST", "level info", "-Inf"} {
		require.Contains(t, root, s)
	}
}

func TestDescribeInsideRun(t *testing.T) {
	want := roundTrip(t, fixture(nil), isBridge)
	var got *Tree
	app := fixture(func(cCtx *cli.Context) error {
		got = roundTrip(t, cCtx.App, isBridge)
		return nil
	})
	var out bytes.Buffer
	app.Writer, app.ErrWriter = &out, &out
	require.NoError(t, app.Run([]string{"prog", "--config", "x", "--nil-weights", "1", "bridge"}))
	require.NotNil(t, got)
	require.Equal(t, want, got)

	// After running a nested command, the set-up parts are still left out.
	app = fixture(nil)
	app.Writer, app.ErrWriter = &out, &out
	require.NoError(t, app.Run([]string{"prog", "--config", "x", "--nil-weights", "1", "db", "--config", "y", "--nil-weights", "1", "migrate", "--steps", "2", "up"}))
	require.Equal(t, want, roundTrip(t, app, isBridge))
}

func TestSkipAndWarnings(t *testing.T) {
	all := Describe(fixture(nil), nil)
	tree := Describe(fixture(nil), isBridge)
	names := func(tr *Tree) (ns []string) {
		for _, c := range tr.Commands {
			ns = append(ns, c.Name)
		}
		return ns
	}
	require.Equal(t, []string{"db", "secret", "serve", "bridge"}, names(all))
	require.Equal(t, []string{"db", "secret", "serve"}, names(tree))

	require.Equal(t, []string{
		"flag --level of prog: type *apptree.levelFlag is not one of urfave/cli v2's; described as a string",
		"flag --turbo of prog: type *apptree.switchFlag is not one of urfave/cli v2's; described as a bool",
		"flag --level of prog db: type *apptree.levelFlag is not one of urfave/cli v2's; described as a string",
		"flag --turbo of prog db: type *apptree.switchFlag is not one of urfave/cli v2's; described as a bool",
	}, tree.Warnings)

	level := tree.Flags[len(tree.Flags)-2]
	require.Equal(t, "generic", level.Kind)
	require.Equal(t, []string{"L"}, level.Aliases)
	require.Equal(t, []string{"LOG_LEVEL"}, level.EnvVars)
	require.Equal(t, `"info"`, string(level.Value))
	require.Equal(t, "level info", level.DefaultText)
	turbo := tree.Flags[len(tree.Flags)-1]
	require.Equal(t, "bool", turbo.Kind)
	require.True(t, turbo.DisableDefaultText)

	require.Empty(t, Describe(&cli.App{Name: "x", Flags: []cli.Flag{&cli.StringFlag{Name: "s"}}}, nil).Warnings)
}

func TestChoicesAndGeneric(t *testing.T) {
	app := Build(roundTrip(t, fixture(nil), nil), nil)
	type chooser interface{ Choices() []string }
	byName := map[string]cli.Flag{}
	for _, f := range app.Flags {
		byName[f.Names()[0]] = f
	}
	format := byName["format"].(*cli.GenericFlag)
	ch, ok := format.Value.(chooser)
	require.True(t, ok)
	require.Equal(t, []string{"json", "yaml", "text"}, ch.Choices())
	require.Equal(t, "json", format.Value.String())

	level := byName["level"].(*cli.GenericFlag)
	_, ok = level.Value.(chooser)
	require.False(t, ok)
	require.NoError(t, level.Value.Set("debug"))
	require.Equal(t, "debug", level.Value.String())

	require.Nil(t, byName["label"].(*cli.StringSliceFlag).Value)
	require.NotNil(t, byName["empty"].(*cli.StringSliceFlag).Value)
	require.Nil(t, byName["at"].(*cli.TimestampFlag).Value)
}

func TestTimezoneFallback(t *testing.T) {
	loc := time.FixedZone("XYZ", 5*3600+1800)
	when := time.Date(2001, 2, 3, 4, 5, 6, 7, loc)
	app := &cli.App{Name: "x", Flags: []cli.Flag{&cli.TimestampFlag{Name: "t", Layout: time.RFC3339, Timezone: loc, Value: cli.NewTimestamp(when)}}}
	got := Build(roundTrip(t, app, nil), nil).Flags[0].(*cli.TimestampFlag)
	require.Nil(t, got.Timezone) // a fixed zone has no name time.LoadLocation knows
	require.Equal(t, when.String(), got.Value.Value().String())
	require.True(t, when.Equal(*got.Value.Value()))
}

func TestFormatRefused(t *testing.T) {
	var tr Tree
	err := json.Unmarshal([]byte(`{"format": 2, "name": "x"}`), &tr)
	require.ErrorContains(t, err, "newer")
	require.Error(t, json.Unmarshal([]byte(`{"name": "x"}`), &tr))
	require.NoError(t, json.Unmarshal([]byte(`{"format": 1, "name": "x"}`), &tr))
	require.Equal(t, "x", Build(&tr, nil).Name)
}

func TestFloatSpecials(t *testing.T) {
	for _, v := range []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64, math.MaxFloat64, -1.0 / 3} {
		got := parseFloat(floatRaw(v))
		require.Equal(t, math.Float64bits(v), math.Float64bits(got), "%v", v)
	}
}

// compareApps walks both apps, comparing every exported non-func field.
func compareApps(t *testing.T, want, got *cli.App) {
	t.Helper()
	notDescribed := map[string]bool{
		"Authors": true, "Metadata": true, "Reader": true, "Writer": true, "ErrWriter": true,
		"Compiled": true, "AllowExtFlags": true, "Commands": true, "Flags": true,
	}
	compareStructs(t, "app", reflect.ValueOf(want).Elem(), reflect.ValueOf(got).Elem(), notDescribed)
	require.Equal(t, want.Action != nil, got.Action != nil, "app Action")
	compareFlags(t, "app", want.Flags, got.Flags)
	compareCommands(t, "app", want.Commands, got.Commands)
}

func compareCommands(t *testing.T, where string, want, got []*cli.Command) {
	t.Helper()
	require.Len(t, got, len(want), where)
	for i := range want {
		w := where + " " + want[i].Name
		compareStructs(t, w, reflect.ValueOf(want[i]).Elem(), reflect.ValueOf(got[i]).Elem(), map[string]bool{"Subcommands": true, "Flags": true})
		require.Equal(t, want[i].Action != nil, got[i].Action != nil, w+" Action")
		compareFlags(t, w, want[i].Flags, got[i].Flags)
		compareCommands(t, w, want[i].Subcommands, got[i].Subcommands)
	}
}

func compareFlags(t *testing.T, where string, want, got []cli.Flag) {
	t.Helper()
	require.Len(t, got, len(want), where)
	for i := range want {
		w := fmt.Sprintf("%s flag %v", where, want[i].Names())
		require.Equal(t, want[i].Names(), got[i].Names(), w)
		switch want[i].(type) {
		case *levelFlag, *switchFlag:
			continue // described from its interfaces; checked in TestSkipAndWarnings
		}
		require.Equal(t, reflect.TypeOf(want[i]), reflect.TypeOf(got[i]), w)
		compareStructs(t, w, reflect.ValueOf(want[i]).Elem(), reflect.ValueOf(got[i]).Elem(),
			map[string]bool{"Destination": true, "Count": true})
	}
}

var (
	genericType  = reflect.TypeOf((*cli.Generic)(nil)).Elem()
	locationType = reflect.TypeOf((*time.Location)(nil))
	tsType       = reflect.TypeOf((*cli.Timestamp)(nil))
)

func compareStructs(t *testing.T, where string, want, got reflect.Value, skip map[string]bool) {
	t.Helper()
	for i := 0; i < want.NumField(); i++ {
		sf := want.Type().Field(i)
		if !sf.IsExported() || skip[sf.Name] || sf.Type.Kind() == reflect.Func {
			continue
		}
		w, g := want.Field(i), got.Field(i)
		name := where + "." + sf.Name
		switch {
		case sf.Type == genericType:
			require.Equal(t, w.IsNil(), g.IsNil(), name)
			if w.IsNil() {
				continue
			}
			wv, gv := w.Interface().(cli.Generic), g.Interface().(cli.Generic)
			require.Equal(t, wv.String(), gv.String(), name)
			type chooser interface{ Choices() []string }
			wc, wok := wv.(chooser)
			gc, gok := gv.(chooser)
			require.Equal(t, wok, gok, name)
			if wok && (len(wc.Choices()) > 0 || len(gc.Choices()) > 0) {
				require.Equal(t, wc.Choices(), gc.Choices(), name)
			}
		case sf.Type == locationType:
			require.Equal(t, w.IsNil(), g.IsNil(), name)
			if !w.IsNil() {
				require.Equal(t, w.Interface().(*time.Location).String(), g.Interface().(*time.Location).String(), name)
			}
		case sf.Type == tsType:
			require.Equal(t, w.IsNil(), g.IsNil(), name)
			if w.IsNil() {
				continue
			}
			wt, gt := w.Interface().(*cli.Timestamp).Value(), g.Interface().(*cli.Timestamp).Value()
			require.Equal(t, wt == nil, gt == nil, name)
			if wt != nil {
				require.Equal(t, wt.String(), gt.String(), name)
				require.True(t, wt.Equal(*gt), name)
				require.Equal(t, wt.Location().String(), gt.Location().String(), name)
			}
		case sf.Name == "Target" && sf.Type.Kind() == reflect.Pointer:
			// The slice flag a MultiStringFlag (and the like) wraps.
			require.Equal(t, w.IsNil(), g.IsNil(), name)
			if !w.IsNil() {
				compareStructs(t, name, w.Elem(), g.Elem(), map[string]bool{"Destination": true})
			}
		case sf.Type.Kind() == reflect.Pointer && w.Type().Elem().Kind() == reflect.Struct:
			// *cli.StringSlice and the other slice values: compare Value().
			require.Equal(t, w.IsNil(), g.IsNil(), name)
			if w.IsNil() {
				continue
			}
			wv := w.MethodByName("Value").Call(nil)[0].Interface()
			gv := g.MethodByName("Value").Call(nil)[0].Interface()
			if ws, ok := wv.([]float64); ok {
				gs := gv.([]float64)
				require.Len(t, gs, len(ws), name)
				for j := range ws {
					require.Equal(t, math.Float64bits(ws[j]), math.Float64bits(gs[j]), name)
				}
				continue
			}
			require.Equal(t, wv, gv, name)
		case sf.Type.Kind() == reflect.Float64:
			require.Equal(t, math.Float64bits(w.Float()), math.Float64bits(g.Float()), name)
		default:
			require.Equal(t, w.Interface(), g.Interface(), name)
		}
	}
}

// TestNoSecretBecomesADefault: described from inside Run, a flag whose value came from
// its environment variable or its file records no default, so a password in
// DATABASE_URL never reaches a schema; a flag left alone keeps its default.
func TestNoSecretBecomesADefault(t *testing.T) {
	secretFile := t.TempDir() + "/token"
	require.NoError(t, os.WriteFile(secretFile, []byte("s3cret-file"), 0o600))
	t.Setenv("APPTREE_TEST_URL", "postgres://user:s3cret@db/x")
	var got *Tree
	app := &cli.App{
		Name: "db",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "url", Value: "file:db.txt", EnvVars: []string{"APPTREE_TEST_URL"}},
			&cli.StringFlag{Name: "token", FilePath: secretFile},
			&cli.StringFlag{Name: "dir", Value: "migrations", EnvVars: []string{"APPTREE_TEST_UNSET"}},
		},
		Commands: []*cli.Command{{Name: "bridge", Action: func(c *cli.Context) error {
			got = roundTrip(t, c.App, isBridge)
			return nil
		}}},
	}
	require.NoError(t, app.Run([]string{"db", "bridge"}))
	require.NotNil(t, got)
	raw, err := json.Marshal(got)
	require.NoError(t, err)
	require.NotContains(t, string(raw), "s3cret")
	byName := map[string]Flag{}
	for _, f := range got.Flags {
		byName[f.Name] = f
	}
	require.Nil(t, byName["url"].Value, "set from the environment: no default")
	require.Nil(t, byName["token"].Value, "read from a file: no default")
	require.JSONEq(t, `"migrations"`, string(byName["dir"].Value), "untouched: its default")
}
