package apptree

import (
	"flag"
	"math"
	"time"

	"github.com/urfave/cli/v2"
)

func noop(*cli.Context) error { return nil }

// enumValue is a cli.Generic with a Choices method, as programs write for enums.
type enumValue struct {
	v       string
	choices []string
}

func (e *enumValue) Set(s string) error { e.v = s; return nil }
func (e *enumValue) String() string     { return e.v }
func (e *enumValue) Choices() []string  { return e.choices }

// levelFlag is a program's own flag type that takes a value.
type levelFlag struct {
	name, usage, value string
	aliases, env       []string
}

func (f *levelFlag) String() string         { return cli.FlagStringer(f) }
func (f *levelFlag) Names() []string        { return append([]string{f.name}, f.aliases...) }
func (f *levelFlag) IsSet() bool            { return false }
func (f *levelFlag) TakesValue() bool       { return true }
func (f *levelFlag) GetUsage() string       { return f.usage }
func (f *levelFlag) GetValue() string       { return f.value }
func (f *levelFlag) GetDefaultText() string { return "level " + f.value }
func (f *levelFlag) GetEnvVars() []string   { return f.env }
func (f *levelFlag) IsVisible() bool        { return true }
func (f *levelFlag) IsRequired() bool       { return false }
func (f *levelFlag) GetCategory() string    { return "" }
func (f *levelFlag) Apply(set *flag.FlagSet) error {
	for _, n := range f.Names() {
		set.String(n, f.value, f.usage)
	}
	return nil
}

// switchFlag is a program's own flag type that takes no value.
type switchFlag struct{ name, usage string }

func (f *switchFlag) String() string         { return cli.FlagStringer(f) }
func (f *switchFlag) Names() []string        { return []string{f.name} }
func (f *switchFlag) IsSet() bool            { return false }
func (f *switchFlag) TakesValue() bool       { return false }
func (f *switchFlag) GetUsage() string       { return f.usage }
func (f *switchFlag) GetValue() string       { return "" }
func (f *switchFlag) GetDefaultText() string { return "" }
func (f *switchFlag) GetEnvVars() []string   { return nil }
func (f *switchFlag) IsVisible() bool        { return true }
func (f *switchFlag) GetCategory() string    { return "Output" }
func (f *switchFlag) Apply(set *flag.FlagSet) error {
	set.Bool(f.name, false, f.usage)
	return nil
}

// fixture builds a fresh app exercising every flag type and command feature.
// bridge, when not nil, is the Action of the top-level "bridge" command.
func fixture(bridge cli.ActionFunc) *cli.App {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		panic(err)
	}
	ts := cli.NewTimestamp(time.Date(2024, 3, 31, 2, 30, 15, 123456789, berlin))
	var dest string
	cnt := 0

	allFlags := func() []cli.Flag {
		return []cli.Flag{
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"V"}, Usage: "be `loud`", EnvVars: []string{"APP_VERBOSE"}, Value: true, Count: &cnt, Category: "Output"},
			&cli.BoolFlag{Name: "quiet", DisableDefaultText: true, Hidden: true},
			&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "read `FILE`", EnvVars: []string{"APP_CONFIG", "CONFIG"}, FilePath: "/etc/app/config", TakesFile: true, Value: "app.toml", Destination: &dest, Required: true},
			&cli.PathFlag{Name: "dir", Usage: "work dir", Value: "/tmp/x", TakesFile: true, Category: "Files", DefaultText: "a temp dir"},
			&cli.IntFlag{Name: "offset", Value: -42, Base: 16, Usage: "offset", Aliases: []string{"o"}},
			&cli.Int64Flag{Name: "big", Value: math.MinInt64, Base: 8},
			&cli.UintFlag{Name: "count", Value: 7, Base: 10},
			&cli.Uint64Flag{Name: "max", Value: math.MaxUint64, Base: 0},
			&cli.Float64Flag{Name: "ratio", Value: 0.1 + 0.2, EnvVars: []string{"RATIO"}},
			&cli.Float64Flag{Name: "inf", Value: math.Inf(-1)},
			&cli.DurationFlag{Name: "timeout", Value: 90*time.Minute + 3*time.Nanosecond, Aliases: []string{"t"}},
			&cli.TimestampFlag{Name: "since", Layout: "2006-01-02T15:04:05", Timezone: berlin, Value: ts, Usage: "start"},
			&cli.TimestampFlag{Name: "until", Layout: time.RFC3339, Value: cli.NewTimestamp(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))},
			&cli.TimestampFlag{Name: "at", Layout: time.Kitchen},
			&cli.GenericFlag{Name: "format", Value: &enumValue{v: "json", choices: []string{"json", "yaml", "text"}}, Usage: "output format", TakesFile: false, Category: "Output"},
			&cli.StringSliceFlag{Name: "tag", Value: cli.NewStringSlice("a", " b ", "c,d"), KeepSpace: true, TakesFile: true, EnvVars: []string{"TAGS"}},
			&cli.StringSliceFlag{Name: "label"},
			&cli.StringSliceFlag{Name: "empty", Value: cli.NewStringSlice()},
			&cli.MultiStringFlag{Target: &cli.StringSliceFlag{Name: "multi-label", Usage: "a `KEY=VALUE` label (repeatable)"}, Value: []string{"k=v"}},
			&cli.MultiIntFlag{Target: &cli.IntSliceFlag{Name: "port", Aliases: []string{"p"}}},
			&cli.IntSliceFlag{Name: "ports", Value: cli.NewIntSlice(80, -443, 8080)},
			&cli.Int64SliceFlag{Name: "ids", Value: cli.NewInt64Slice(math.MaxInt64, math.MinInt64)},
			&cli.UintSliceFlag{Name: "sizes", Value: cli.NewUintSlice(1, 2, 3)},
			&cli.Uint64SliceFlag{Name: "masks", Value: cli.NewUint64Slice(math.MaxUint64, 0)},
			&cli.Float64SliceFlag{Name: "weights", Value: cli.NewFloat64Slice(1.5, -2.25, 1e-300, math.MaxFloat64)},
			&cli.Float64SliceFlag{Name: "nil-weights", Required: true},
			&levelFlag{name: "level", aliases: []string{"L"}, usage: "log `LEVEL`", value: "info", env: []string{"LOG_LEVEL"}},
			&switchFlag{name: "turbo", usage: "go fast"},
		}
	}

	return &cli.App{
		Name:                   "prog",
		HelpName:               "prog",
		Usage:                  "does things",
		UsageText:              "prog [global options] command",
		ArgsUsage:              "[thing]",
		Version:                "1.2.3",
		Description:            "A fixture.\nTwo lines.",
		Copyright:              "(c) nobody",
		EnableBashCompletion:   true,
		UseShortOptionHandling: true,
		Suggest:                true,
		Action:                 noop,
		Flags:                  allFlags(),
		Commands: []*cli.Command{
			{
				Name:        "db",
				Aliases:     []string{"d", "database"},
				Usage:       "database things",
				Description: "Database commands.",
				Category:    "Storage",
				Action:      noop, // both subcommands and an action
				Flags:       allFlags(),
				Subcommands: []*cli.Command{
					{
						Name:      "migrate",
						Usage:     "migrate the schema",
						ArgsUsage: "<version>",
						Args:      true,
						Flags:     []cli.Flag{&cli.IntFlag{Name: "steps", Value: 1, Required: true}},
						Subcommands: []*cli.Command{
							{Name: "up", Usage: "go up", Action: noop, Flags: []cli.Flag{&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}}}},
							{Name: "down", Usage: "go down", Action: noop, Hidden: true, HelpName: "down-help"},
						},
					},
					{Name: "shell", Usage: "open a shell", SkipFlagParsing: true, Action: noop, UsageText: "prog db shell [args...]"},
				},
			},
			{Name: "secret", Usage: "hidden", Hidden: true, Action: noop, HideHelp: true},
			{Name: "serve", Usage: "serve", Category: "Storage", Action: noop, HideHelpCommand: true, UseShortOptionHandling: true,
				Flags: []cli.Flag{&cli.StringFlag{Name: "addr", Value: ":8080"}, &cli.BoolFlag{Name: "a"}, &cli.BoolFlag{Name: "b"}}},
			{Name: "bridge", Usage: "the adopter's bridge", Action: bridge},
		},
	}
}
