package apptree

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/appspec"
)

// The description's types live in package appspec (no urfave/cli: a program of another
// framework describes itself with them); these names keep this package's callers as they
// were.
type (
	Tree    = appspec.Tree
	Command = appspec.Command
	Flag    = appspec.Flag
)

// Format is the version of the description's shape; a reader refuses a newer one.
const Format = appspec.Format

// multiKinds are the slice kinds urfave/cli v2 wraps in a SliceFlag of its own.
var multiKinds = []string{"string-slice", "int-slice", "int64-slice", "float64-slice"}

// multi describes a cli.SliceFlag[T, S, E] (a generic type, so no type switch matches
// it): a pointer to a struct whose Target is one of the wrapped slice flags and whose
// Value is the default.
func (d *describer) multi(f cli.Flag, where string) (Flag, bool) {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return Flag{}, false
	}
	t, val := v.Elem().FieldByName("Target"), v.Elem().FieldByName("Value")
	if !t.IsValid() || !val.IsValid() || val.Kind() != reflect.Slice || !t.CanInterface() || !val.CanInterface() {
		return Flag{}, false
	}
	target, ok := t.Interface().(cli.Flag)
	if !ok || target == nil || (t.Kind() == reflect.Pointer && t.IsNil()) {
		return Flag{}, false
	}
	inner := d.flag(target, where)
	if !slices.Contains(multiKinds, inner.Kind) {
		return Flag{}, false
	}
	// The wrapper's Value is the default: applying it copies it into the target's.
	inner.Value = nil
	out := Flag{Kind: "multi", Name: inner.Name, Target: &inner}
	if !val.IsNil() {
		raw, err := json.Marshal(val.Interface())
		if err == nil {
			out.Value = raw
		}
	}
	return out, true
}

// buildMulti rebuilds a "multi" flag around its rebuilt target.
func buildMulti(f *Flag) cli.Flag {
	if f.Target == nil {
		return nil
	}
	switch target := buildFlag(f.Target).(type) {
	case *cli.StringSliceFlag:
		out := &cli.MultiStringFlag{Target: target}
		decode(f.Value, &out.Value)
		return out
	case *cli.IntSliceFlag:
		out := &cli.MultiIntFlag{Target: target}
		decode(f.Value, &out.Value)
		return out
	case *cli.Int64SliceFlag:
		out := &cli.MultiInt64Flag{Target: target}
		decode(f.Value, &out.Value)
		return out
	case *cli.Float64SliceFlag:
		out := &cli.MultiFloat64Flag{Target: target}
		decode(f.Value, &out.Value)
		return out
	}
	return nil
}

// describer carries what Describe needs to recognise the parts cli.App.Setup adds.
type describer struct {
	appName    string
	setUp      bool
	helpCmd    *cli.Command
	helpAction uintptr
	appShort   bool
	warnings   []string
}

// Describe describes app; skip (may be nil) leaves out top-level commands it returns true for
// (the adopter's own bridge subcommand). Warnings in the result name flags whose type is not
// one of urfave/cli v2's own (described as best it can).
func Describe(app *cli.App, skip func(*cli.Command) bool) *Tree {
	d := &describer{appName: app.Name, setUp: boolField(app, "didSetup"), appShort: app.UseShortOptionHandling}
	if d.setUp {
		d.probe()
	}
	t := &Tree{
		Format:                    Format,
		Name:                      app.Name,
		HelpName:                  app.HelpName,
		Usage:                     app.Usage,
		UsageText:                 app.UsageText,
		Args:                      app.Args,
		ArgsUsage:                 app.ArgsUsage,
		Version:                   app.Version,
		Description:               app.Description,
		DefaultCommand:            app.DefaultCommand,
		Copyright:                 app.Copyright,
		CustomAppHelpTemplate:     app.CustomAppHelpTemplate,
		SliceFlagSeparator:        app.SliceFlagSeparator,
		DisableSliceFlagSeparator: app.DisableSliceFlagSeparator,
		HideHelp:                  app.HideHelp,
		HideHelpCommand:           app.HideHelpCommand,
		HideVersion:               app.HideVersion,
		EnableBashCompletion:      app.EnableBashCompletion,
		UseShortOptionHandling:    app.UseShortOptionHandling,
		Suggest:                   app.Suggest,
		SkipFlagParsing:           app.SkipFlagParsing,
		HasAction:                 d.hasAction(app.Action),
	}
	if t.HasAction {
		t.Package = appspec.PackageOf(app.Action)
	}
	t.Meta = d.meta(app.Metadata)
	t.Flags = d.flags(app.Flags, app.Name)
	for _, c := range app.Commands {
		if c == nil || c == d.helpCmd || (skip != nil && skip(c)) {
			continue
		}
		helpName := c.HelpName
		if d.setUp {
			// Setup set HelpName to "<app HelpName> <HelpName or Name>".
			if rest, ok := strings.CutPrefix(helpName, app.HelpName+" "); ok {
				helpName = rest
				if rest == c.Name {
					helpName = ""
				}
			}
		}
		t.Commands = append(t.Commands, d.command(c, helpName, []string{app.Name}))
	}
	t.Warnings = d.warnings
	return t
}

// meta is the toolkit's keys of an app's Metadata (appspec.MetaPrefix), each as JSON; a
// value that has no JSON form is left out with a warning.
func (d *describer) meta(m map[string]any) map[string]json.RawMessage {
	var out map[string]json.RawMessage
	for k, v := range m {
		if !strings.HasPrefix(k, appspec.MetaPrefix) {
			continue
		}
		b, err := canonical(v)
		if err != nil {
			d.warnings = append(d.warnings, fmt.Sprintf("metadata %s: left out: %v", k, err))
			continue
		}
		if out == nil {
			out = map[string]json.RawMessage{}
		}
		out[k] = b
	}
	return out
}

// canonical is v as JSON in the form its decoded value encodes to (objects' keys
// sorted), so a rebuilt app's Metadata describes to the same bytes: tool.CanonicalJSON,
// which this light package cannot import.
func canonical(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var plain any
	if err := json.Unmarshal(b, &plain); err != nil {
		return nil, err
	}
	return json.Marshal(plain)
}

// probe finds the help command and help Action that cli.App.Setup adds, by
// setting up a throwaway app.
func (d *describer) probe() {
	p := &cli.App{
		Name:      "probe",
		Compiled:  time.Unix(1, 0),
		Reader:    strings.NewReader(""),
		Writer:    io.Discard,
		ErrWriter: io.Discard,
	}
	p.Setup()
	d.helpCmd = p.Command("help")
	if p.Action != nil {
		d.helpAction = reflect.ValueOf(p.Action).Pointer()
	}
}

func (d *describer) hasAction(a cli.ActionFunc) bool {
	if a == nil {
		return false
	}
	return d.helpAction == 0 || reflect.ValueOf(a).Pointer() != d.helpAction
}

func (d *describer) command(c *cli.Command, helpName string, parent []string) Command {
	path := append(append([]string(nil), parent...), c.Name)
	out := Command{
		Name:                   c.Name,
		Aliases:                copyStrings(c.Aliases),
		Usage:                  c.Usage,
		UsageText:              c.UsageText,
		Description:            c.Description,
		Args:                   c.Args,
		ArgsUsage:              c.ArgsUsage,
		Category:               c.Category,
		Hidden:                 c.Hidden,
		HideHelp:               c.HideHelp,
		HideHelpCommand:        c.HideHelpCommand,
		SkipFlagParsing:        c.SkipFlagParsing,
		UseShortOptionHandling: c.UseShortOptionHandling,
		HelpName:               helpName,
		CustomHelpTemplate:     c.CustomHelpTemplate,
		HasAction:              d.hasAction(c.Action),
		Flags:                  d.flags(c.Flags, strings.Join(path, " ")),
	}
	if out.HasAction {
		out.Package = appspec.PackageOf(c.Action)
	}
	// A command that has run was set up: its subcommands without a HelpName
	// got "<its HelpName> <Name>", and it got the app's UseShortOptionHandling
	// (which setting up the rebuilt app gives it again).
	setUp := d.setUp && !nilField(c, "categories")
	if setUp && d.appShort {
		out.UseShortOptionHandling = false
	}
	for _, s := range c.Subcommands {
		if s == nil || s == d.helpCmd {
			continue
		}
		sub := s.HelpName
		if setUp && sub == c.HelpName+" "+s.Name {
			sub = ""
		}
		out.Subcommands = append(out.Subcommands, d.command(s, sub, path))
	}
	return out
}

func (d *describer) flags(fs []cli.Flag, where string) []Flag {
	var out []Flag
	for _, f := range fs {
		if f == nil || f == cli.HelpFlag || f == cli.VersionFlag {
			continue
		}
		fl := d.flag(f, where)
		if Sourced(fl.EnvVars, fl.FilePath) {
			// Described from a running app, the value may be the environment's or a
			// file's (urfave/cli sets it when the flag is applied), never a default: a
			// secret must not become a schema default, so none is recorded.
			fl.Value = nil
		}
		out = append(out, fl)
	}
	return out
}

// Sourced reports whether a flag with these environment variables and file paths (a
// urfave/cli FilePath: comma-separated) may hold a value from outside the program: one
// of its variables is set, or one of its files exists. Such a value is never a default
// to publish (the adapter's schemas and this package's descriptions both ask).
func Sourced(envVars []string, filePath string) bool {
	for _, name := range envVars {
		if _, ok := os.LookupEnv(name); ok {
			return true
		}
	}
	for _, path := range strings.Split(filePath, ",") {
		if path = strings.TrimSpace(path); path != "" {
			if _, err := os.Stat(path); err == nil {
				return true
			}
		}
	}
	return false
}

func (d *describer) flag(f cli.Flag, where string) Flag {
	switch f := f.(type) {
	case *cli.BoolFlag:
		out := common("bool", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		out.DisableDefaultText = f.DisableDefaultText
		out.Value = raw(strconv.FormatBool(f.Value))
		return out
	case *cli.StringFlag:
		out := common("string", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		out.TakesFile = f.TakesFile
		out.Value = stringRaw(f.Value)
		return out
	case *cli.PathFlag:
		out := common("path", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		out.TakesFile = f.TakesFile
		out.Value = stringRaw(f.Value)
		return out
	case *cli.IntFlag:
		out := common("int", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		out.Base = f.Base
		out.Value = raw(strconv.FormatInt(int64(f.Value), 10))
		return out
	case *cli.Int64Flag:
		out := common("int64", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		out.Base = f.Base
		out.Value = raw(strconv.FormatInt(f.Value, 10))
		return out
	case *cli.UintFlag:
		out := common("uint", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		out.Base = f.Base
		out.Value = raw(strconv.FormatUint(uint64(f.Value), 10))
		return out
	case *cli.Uint64Flag:
		out := common("uint64", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		out.Base = f.Base
		out.Value = raw(strconv.FormatUint(f.Value, 10))
		return out
	case *cli.Float64Flag:
		out := common("float64", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		out.Value = floatRaw(f.Value)
		return out
	case *cli.DurationFlag:
		out := common("duration", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		out.Value = raw(strconv.FormatInt(int64(f.Value), 10))
		return out
	case *cli.TimestampFlag:
		out := common("timestamp", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		out.Layout = f.Layout
		if f.Timezone != nil {
			out.Timezone = f.Timezone.String()
		}
		// Apply (in Run) replaces a nil Value with &cli.Timestamp{}: in a set-up
		// app the two cannot be told apart and are described as nil.
		if f.Value != nil && (f.Value.Value() != nil || !d.setUp) {
			out.Value = timestampRaw(f.Value.Value())
		}
		return out
	case *cli.GenericFlag:
		out := common("generic", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		out.TakesFile = f.TakesFile
		if f.Value != nil {
			out.Value = stringRaw(f.Value.String())
			if ch, ok := f.Value.(chooser); ok {
				c := append([]string{}, ch.Choices()...)
				out.Choices = &c
			}
		}
		return out
	case *cli.StringSliceFlag:
		out := common("string-slice", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		out.TakesFile = f.TakesFile
		out.KeepSpace = f.KeepSpace
		if f.Value != nil {
			out.Value = sliceRaw(f.Value.Value(), stringRaw)
		}
		return out
	case *cli.IntSliceFlag:
		out := common("int-slice", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		if f.Value != nil {
			out.Value = sliceRaw(f.Value.Value(), func(v int) json.RawMessage { return raw(strconv.Itoa(v)) })
		}
		return out
	case *cli.Int64SliceFlag:
		out := common("int64-slice", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		if f.Value != nil {
			out.Value = sliceRaw(f.Value.Value(), func(v int64) json.RawMessage { return raw(strconv.FormatInt(v, 10)) })
		}
		return out
	case *cli.UintSliceFlag:
		out := common("uint-slice", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		if f.Value != nil {
			out.Value = sliceRaw(f.Value.Value(), func(v uint) json.RawMessage { return raw(strconv.FormatUint(uint64(v), 10)) })
		}
		return out
	case *cli.Uint64SliceFlag:
		out := common("uint64-slice", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		if f.Value != nil {
			out.Value = sliceRaw(f.Value.Value(), func(v uint64) json.RawMessage { return raw(strconv.FormatUint(v, 10)) })
		}
		return out
	case *cli.Float64SliceFlag:
		out := common("float64-slice", f.Name, f.Aliases, f.Usage, f.EnvVars, f.FilePath, f.Required, f.Hidden, f.Category, f.DefaultText)
		if f.Value != nil {
			out.Value = sliceRaw(f.Value.Value(), floatRaw)
		}
		return out
	}
	if m, ok := d.multi(f, where); ok {
		return m
	}
	return d.unknown(f, where)
}

// unknown describes a flag of a type that is not urfave/cli v2's own, from its interfaces.
func (d *describer) unknown(f cli.Flag, where string) Flag {
	names := f.Names()
	out := Flag{Kind: "bool"}
	if len(names) > 0 {
		out.Name = names[0]
		out.Aliases = copyStrings(names[1:])
	}
	if rf, ok := f.(cli.RequiredFlag); ok {
		out.Required = rf.IsRequired()
	}
	if vf, ok := f.(cli.VisibleFlag); ok {
		out.Hidden = !vf.IsVisible()
	}
	if cf, ok := f.(cli.CategorizableFlag); ok {
		out.Category = cf.GetCategory()
	}
	df, doc := f.(cli.DocGenerationFlag)
	if doc {
		out.Usage = df.GetUsage()
		out.EnvVars = copyStrings(df.GetEnvVars())
	}
	as := "bool"
	if doc && df.TakesValue() {
		as = "string"
		out.Kind = "generic"
		v := df.GetValue()
		out.Value = stringRaw(v)
		if dt := df.GetDefaultText(); dt != v {
			out.DefaultText = dt
		}
	} else {
		out.Value = raw("false")
		if doc {
			if dt := df.GetDefaultText(); dt != "" {
				out.DefaultText = dt
			} else {
				out.DisableDefaultText = true
			}
		}
	}
	d.warnings = append(d.warnings, fmt.Sprintf("flag --%s of %s: type %T is not one of urfave/cli v2's; described as a %s", out.Name, where, f, as))
	out.Unknown = fmt.Sprintf("%T", f)
	return out
}

type chooser interface{ Choices() []string }

func common(kind, name string, aliases []string, usage string, env []string, filePath string, required, hidden bool, category, defaultText string) Flag {
	return Flag{
		Kind:        kind,
		Name:        name,
		Aliases:     copyStrings(aliases),
		Usage:       usage,
		EnvVars:     copyStrings(env),
		FilePath:    filePath,
		Required:    required,
		Hidden:      hidden,
		Category:    category,
		DefaultText: defaultText,
	}
}

// Build rebuilds a fresh *cli.App from t. action(path) gives the Action of each command that had
// one in the original (path = the command names from the root, nil for the app itself when
// it had an Action); commands that had no action get none.
func Build(t *Tree, action func(path []string) cli.ActionFunc) *cli.App {
	app := &cli.App{
		Name:                      t.Name,
		HelpName:                  t.HelpName,
		Usage:                     t.Usage,
		UsageText:                 t.UsageText,
		Args:                      t.Args,
		ArgsUsage:                 t.ArgsUsage,
		Version:                   t.Version,
		Description:               t.Description,
		DefaultCommand:            t.DefaultCommand,
		Copyright:                 t.Copyright,
		CustomAppHelpTemplate:     t.CustomAppHelpTemplate,
		SliceFlagSeparator:        t.SliceFlagSeparator,
		DisableSliceFlagSeparator: t.DisableSliceFlagSeparator,
		HideHelp:                  t.HideHelp,
		HideHelpCommand:           t.HideHelpCommand,
		HideVersion:               t.HideVersion,
		EnableBashCompletion:      t.EnableBashCompletion,
		UseShortOptionHandling:    t.UseShortOptionHandling,
		Suggest:                   t.Suggest,
		SkipFlagParsing:           t.SkipFlagParsing,
		Flags:                     buildFlags(t.Flags),
	}
	if t.HasAction && action != nil {
		app.Action = action(nil)
	}
	for k, raw := range t.Meta {
		var v any
		if json.Unmarshal(raw, &v) != nil {
			continue
		}
		if app.Metadata == nil {
			app.Metadata = map[string]any{}
		}
		app.Metadata[k] = v
	}
	for i := range t.Commands {
		app.Commands = append(app.Commands, buildCommand(&t.Commands[i], nil, action))
	}
	return app
}

func buildCommand(c *Command, parent []string, action func(path []string) cli.ActionFunc) *cli.Command {
	path := append(append([]string(nil), parent...), c.Name)
	out := &cli.Command{
		Name:                   c.Name,
		Aliases:                copyStrings(c.Aliases),
		Usage:                  c.Usage,
		UsageText:              c.UsageText,
		Description:            c.Description,
		Args:                   c.Args,
		ArgsUsage:              c.ArgsUsage,
		Category:               c.Category,
		Hidden:                 c.Hidden,
		HideHelp:               c.HideHelp,
		HideHelpCommand:        c.HideHelpCommand,
		SkipFlagParsing:        c.SkipFlagParsing,
		UseShortOptionHandling: c.UseShortOptionHandling,
		HelpName:               c.HelpName,
		CustomHelpTemplate:     c.CustomHelpTemplate,
		Flags:                  buildFlags(c.Flags),
	}
	if c.HasAction && action != nil {
		out.Action = action(append([]string(nil), path...))
	}
	for i := range c.Subcommands {
		out.Subcommands = append(out.Subcommands, buildCommand(&c.Subcommands[i], path, action))
	}
	return out
}

func buildFlags(fs []Flag) []cli.Flag {
	var out []cli.Flag
	for i := range fs {
		out = append(out, buildFlag(&fs[i]))
	}
	return out
}

// buildFlag makes the flag of the described kind. A kind this reader does not
// know becomes a generic flag; a value that does not decode is left zero.
func buildFlag(f *Flag) cli.Flag {
	aliases, env := copyStrings(f.Aliases), copyStrings(f.EnvVars)
	switch f.Kind {
	case "bool":
		var v bool
		decode(f.Value, &v)
		return &cli.BoolFlag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText,
			DisableDefaultText: f.DisableDefaultText, Value: v}
	case "string":
		var v string
		decode(f.Value, &v)
		return &cli.StringFlag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText,
			TakesFile: f.TakesFile, Value: v}
	case "path":
		var v string
		decode(f.Value, &v)
		return &cli.PathFlag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText,
			TakesFile: f.TakesFile, Value: v}
	case "int":
		var v int
		decode(f.Value, &v)
		return &cli.IntFlag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText,
			Base: f.Base, Value: v}
	case "int64":
		var v int64
		decode(f.Value, &v)
		return &cli.Int64Flag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText,
			Base: f.Base, Value: v}
	case "uint":
		var v uint
		decode(f.Value, &v)
		return &cli.UintFlag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText,
			Base: f.Base, Value: v}
	case "uint64":
		var v uint64
		decode(f.Value, &v)
		return &cli.Uint64Flag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText,
			Base: f.Base, Value: v}
	case "float64":
		return &cli.Float64Flag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText,
			Value: parseFloat(f.Value)}
	case "duration":
		var v int64
		decode(f.Value, &v)
		return &cli.DurationFlag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText,
			Value: time.Duration(v)}
	case "timestamp":
		out := &cli.TimestampFlag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText,
			Layout: f.Layout, Value: parseTimestamp(f.Value)}
		if f.Timezone != "" {
			if loc, err := time.LoadLocation(f.Timezone); err == nil {
				out.Timezone = loc
			}
		}
		return out
	case "string-slice":
		out := &cli.StringSliceFlag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText,
			TakesFile: f.TakesFile, KeepSpace: f.KeepSpace}
		if vs, ok := parseSlice(f.Value, func(r json.RawMessage) string { var s string; decode(r, &s); return s }); ok {
			out.Value = cli.NewStringSlice(vs...)
		}
		return out
	case "int-slice":
		out := &cli.IntSliceFlag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText}
		if vs, ok := parseSlice(f.Value, func(r json.RawMessage) int { var v int; decode(r, &v); return v }); ok {
			out.Value = cli.NewIntSlice(vs...)
		}
		return out
	case "int64-slice":
		out := &cli.Int64SliceFlag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText}
		if vs, ok := parseSlice(f.Value, func(r json.RawMessage) int64 { var v int64; decode(r, &v); return v }); ok {
			out.Value = cli.NewInt64Slice(vs...)
		}
		return out
	case "uint-slice":
		out := &cli.UintSliceFlag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText}
		if vs, ok := parseSlice(f.Value, func(r json.RawMessage) uint { var v uint; decode(r, &v); return v }); ok {
			out.Value = cli.NewUintSlice(vs...)
		}
		return out
	case "uint64-slice":
		out := &cli.Uint64SliceFlag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText}
		if vs, ok := parseSlice(f.Value, func(r json.RawMessage) uint64 { var v uint64; decode(r, &v); return v }); ok {
			out.Value = cli.NewUint64Slice(vs...)
		}
		return out
	case "float64-slice":
		out := &cli.Float64SliceFlag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText}
		if vs, ok := parseSlice(f.Value, parseFloat); ok {
			out.Value = cli.NewFloat64Slice(vs...)
		}
		return out
	case "multi":
		if out := buildMulti(f); out != nil {
			return out
		}
	}
	// "generic", and any kind this reader does not know.
	out := &cli.GenericFlag{Name: f.Name, Aliases: aliases, Usage: f.Usage, EnvVars: env, FilePath: f.FilePath, Required: f.Required, Hidden: f.Hidden, Category: f.Category, DefaultText: f.DefaultText,
		TakesFile: f.TakesFile}
	if len(f.Value) > 0 || f.Choices != nil {
		var s string
		decode(f.Value, &s)
		if f.Choices != nil {
			out.Value = &choiceValue{genericValue: genericValue{s: s}, choices: append([]string{}, (*f.Choices)...)}
		} else {
			out.Value = &genericValue{s: s}
		}
	}
	return out
}

// genericValue is the rebuilt Value of a generic flag: Set stores the string, String returns it.
type genericValue struct{ s string }

func (g *genericValue) Set(s string) error { g.s = s; return nil }
func (g *genericValue) String() string     { return g.s }

// choiceValue is a genericValue whose original had a Choices() []string method.
type choiceValue struct {
	genericValue
	choices []string
}

func (c *choiceValue) Choices() []string { return append([]string{}, c.choices...) }

type timestampJSON struct {
	Time   string `json:"time,omitempty"`
	Zone   string `json:"zone,omitempty"`
	Abbr   string `json:"abbr,omitempty"`
	Offset int    `json:"offset,omitempty"`
}

func timestampRaw(t *time.Time) json.RawMessage {
	var j timestampJSON
	if t != nil {
		j.Time = t.Format(time.RFC3339Nano)
		j.Abbr, j.Offset = t.Zone()
		j.Zone = t.Location().String()
	}
	b, _ := json.Marshal(j)
	return b
}

// parseTimestamp rebuilds a *cli.Timestamp: nil when absent, without a time for {}.
func parseTimestamp(r json.RawMessage) *cli.Timestamp {
	if len(r) == 0 || string(r) == "null" {
		return nil
	}
	var j timestampJSON
	if json.Unmarshal(r, &j) != nil || j.Time == "" {
		return &cli.Timestamp{}
	}
	t, err := time.Parse(time.RFC3339Nano, j.Time)
	if err != nil {
		return &cli.Timestamp{}
	}
	return cli.NewTimestamp(t.In(location(t, j.Zone, j.Abbr, j.Offset)))
}

// location finds the location named zone (an IANA name, "Local", "UTC") if it
// gives t the recorded abbreviation and offset, else a fixed zone of that
// abbreviation and offset (which prints the same).
func location(t time.Time, zone, abbr string, offset int) *time.Location {
	if zone != "" {
		if loc, err := time.LoadLocation(zone); err == nil {
			if a, off := t.In(loc).Zone(); a == abbr && off == offset {
				return loc
			}
		}
	}
	return time.FixedZone(abbr, offset)
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func stringRaw(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

func floatRaw(v float64) json.RawMessage {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return stringRaw(s)
	}
	return raw(s)
}

func parseFloat(r json.RawMessage) float64 {
	s := string(r)
	if strings.HasPrefix(s, `"`) {
		if json.Unmarshal(r, &s) != nil {
			return 0
		}
	}
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

func sliceRaw[T any](vs []T, enc func(T) json.RawMessage) json.RawMessage {
	parts := make([]json.RawMessage, 0, len(vs))
	for _, v := range vs {
		parts = append(parts, enc(v))
	}
	b, _ := json.Marshal(parts)
	return b
}

// parseSlice decodes an array of element forms; ok is false when absent (a nil Value).
func parseSlice[T any](r json.RawMessage, dec func(json.RawMessage) T) (vs []T, ok bool) {
	if len(r) == 0 || string(r) == "null" {
		return nil, false
	}
	var parts []json.RawMessage
	_ = json.Unmarshal(r, &parts)
	vs = make([]T, 0, len(parts))
	for _, p := range parts {
		vs = append(vs, dec(p))
	}
	return vs, true
}

func decode(r json.RawMessage, v any) {
	if len(r) > 0 {
		_ = json.Unmarshal(r, v)
	}
}

func copyStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append([]string{}, s...)
}

// boolField reads an unexported bool field of *v (false if absent).
func boolField(v any, name string) bool {
	f := reflect.ValueOf(v).Elem().FieldByName(name)
	return f.IsValid() && f.Kind() == reflect.Bool && f.Bool()
}

// nilField reports whether an unexported pointer-like field of *v is nil (true if absent).
func nilField(v any, name string) bool {
	f := reflect.ValueOf(v).Elem().FieldByName(name)
	if !f.IsValid() {
		return true
	}
	switch f.Kind() {
	case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice:
		return f.IsNil()
	}
	return true
}
