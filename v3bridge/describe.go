package v3bridge

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/cmdbridge/cmdbridge/internal/appspec"
)

// Describe is the description of root's command tree the host serves (package appspec):
// skip (may be nil) is left out with its subtree, as are help and hidden commands.
// Warnings name what could not be described exactly.
func Describe(root, skip *cli.Command) *appspec.Tree {
	d := &describer{root: root, skip: skip}
	t := &appspec.Tree{
		Format:          appspec.Format,
		Name:            root.Name,
		HelpName:        root.Name,
		Usage:           root.Usage,
		UsageText:       root.UsageText,
		Description:     root.Description,
		Version:         root.Version,
		ArgsUsage:       argsUsage(root),
		SkipFlagParsing: root.SkipFlagParsing,
		HideHelpCommand: true,
		HasAction:       root.Action != nil,
	}
	path := []string{root.Name}
	seps := separators(nil, root)
	t.Commands = d.commands(root, path, seps)
	t.Flags = d.flags(root, len(t.Commands) == 0, path)
	if len(t.Commands) == 0 {
		t.Meta = leafMeta(root, root, seps)
	}
	if len(d.trimmed) > 0 {
		// Every leaf gets the tree's list: a leaf's flags include its ancestors', and a
		// name trimmed in one command is refused padded in all (appspec.MetaTrimmedFlags).
		slices.Sort(d.trimmed)
		if b, err := json.Marshal(slices.Compact(d.trimmed)); err == nil {
			if len(t.Commands) == 0 {
				t.Meta = withKey(t.Meta, appspec.MetaTrimmedFlags, b)
			}
			eachLeaf(t.Commands, func(c *appspec.Command) { c.Meta = withKey(c.Meta, appspec.MetaTrimmedFlags, b) })
		}
	}
	t.Warnings = d.warnings
	return t
}

type describer struct {
	root     *cli.Command
	skip     *cli.Command
	warnings []string
	// trimmed are the string flags whose StringConfig says TrimSpace
	// (appspec.MetaTrimmedFlags).
	trimmed []string
}

// withHelpWords declares in meta (appspec.MetaHelpWords) that leaf answers a first
// positional "help" or "h" with its help, as v3 does unless the leaf or the root hides
// its help (HideHelp, HideHelpCommand).
func withHelpWords(meta map[string]json.RawMessage, root, leaf *cli.Command) map[string]json.RawMessage {
	if root.HideHelp || root.HideHelpCommand || leaf.HideHelp || leaf.HideHelpCommand {
		return meta
	}
	return withKey(meta, appspec.MetaHelpWords, json.RawMessage(`["help","h"]`))
}

// withKey sets meta[key] to b, making meta when it is nil.
func withKey(meta map[string]json.RawMessage, key string, b json.RawMessage) map[string]json.RawMessage {
	if meta == nil {
		meta = map[string]json.RawMessage{}
	}
	meta[key] = b
	return meta
}

// eachLeaf calls f on every command of cs without subcommands, at any depth.
func eachLeaf(cs []appspec.Command, f func(*appspec.Command)) {
	for i := range cs {
		if len(cs[i].Subcommands) == 0 {
			f(&cs[i])
		}
		eachLeaf(cs[i].Subcommands, f)
	}
}

// separators adds to seps the separator at which c splits the list values of the
// flags it parses: its SliceFlagSeparator ("," unset), none with
// DisableSliceFlagSeparator. A command's flags given before its subcommand are parsed
// by it, so a leaf's lists may be split at the separator of any command on its path.
func separators(seps []string, c *cli.Command) []string {
	out := slices.Clone(seps)
	if c.DisableSliceFlagSeparator {
		return out
	}
	sep := c.SliceFlagSeparator
	if sep == "" {
		sep = ","
	}
	if !slices.Contains(out, sep) {
		out = append(out, sep)
	}
	return out
}

// withSeparators declares seps in meta (appspec.MetaSliceSeparators) unless they are
// the default, a comma alone, which the rebuilt app says by itself.
func withSeparators(meta map[string]json.RawMessage, seps []string) map[string]json.RawMessage {
	if len(seps) == 1 && seps[0] == "," {
		return meta
	}
	b, err := json.Marshal(append([]string{}, seps...))
	if err != nil {
		return meta
	}
	return withKey(meta, appspec.MetaSliceSeparators, b)
}

func (d *describer) commands(c *cli.Command, path []string, seps []string) []appspec.Command {
	var out []appspec.Command
	for _, sub := range c.Commands {
		if sub == nil || sub == d.skip || sub.Hidden || sub.Name == "help" {
			continue
		}
		p := append(append([]string(nil), path...), sub.Name)
		subSeps := separators(seps, sub)
		subs := d.commands(sub, p, subSeps)
		meta := argMeta(sub)
		if len(subs) == 0 {
			meta = leafMeta(d.root, sub, subSeps)
		}
		if sub.Action == nil && len(subs) == 0 {
			continue
		}
		out = append(out, appspec.Command{
			Name:            sub.Name,
			Aliases:         slices.Clone(sub.Aliases),
			Usage:           sub.Usage,
			UsageText:       sub.UsageText,
			Description:     sub.Description,
			ArgsUsage:       argsUsage(sub),
			Category:        sub.Category,
			SkipFlagParsing: sub.SkipFlagParsing,
			HideHelpCommand: true,
			HasAction:       sub.Action != nil,
			Package:         appspec.PackageOf(sub.Action),
			Flags:           d.flags(sub, len(subs) == 0, p),
			Subcommands:     subs,
			Meta:            meta,
		})
	}
	return out
}

// argsUsage is the command's ArgsUsage, or, when it declares Arguments, their usage in
// the positional grammar the schema reads (docs/schemas.md): <name> for a required
// argument, [<name>] for an optional one, <name>... and [<name>...] for v3's repeated
// ones (by Min and Max); an argument with a UsageText of its own is written as that.
func argsUsage(c *cli.Command) string {
	if c.ArgsUsage != "" || len(c.Arguments) == 0 {
		return c.ArgsUsage
	}
	var parts []string
	for _, a := range c.Arguments {
		if u := argUsage(a); u != "" {
			parts = append(parts, u)
		}
	}
	return strings.Join(parts, " ")
}

// argUsage is one argument's usage (see argsUsage).
func argUsage(a cli.Argument) string {
	v := reflect.ValueOf(a)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return strings.TrimSpace(a.Usage())
	}
	field := func(name string) reflect.Value { return v.Elem().FieldByName(name) }
	name, text := field("Name"), field("UsageText")
	if name.Kind() != reflect.String || name.String() == "" || text.Kind() == reflect.String && text.String() != "" {
		return strings.TrimSpace(a.Usage())
	}
	n := name.String()
	if min, max := field("Min"), field("Max"); min.Kind() == reflect.Int && max.Kind() == reflect.Int {
		switch {
		case max.Int() == 1 && min.Int() == 0:
			return "[<" + n + ">]"
		case max.Int() == 1:
			return "<" + n + ">"
		case min.Int() == 0:
			return "[<" + n + ">...]"
		}
		return "<" + n + ">..."
	}
	if req := field("Required"); req.Kind() == reflect.Bool && req.Bool() {
		return "<" + n + ">"
	}
	return "[<" + n + ">]"
}

// leafMeta is a leaf's meta: argMeta, its separators (withSeparators) and its help
// words (withHelpWords).
func leafMeta(root, leaf *cli.Command, seps []string) map[string]json.RawMessage {
	return withHelpWords(withSeparators(argMeta(leaf), seps), root, leaf)
}

// argMeta declares the JSON types of c's numeric arguments (IntArg, UintArgs,
// FloatArg…; appspec.MetaArgTypes), by the name its usage gives them, so their schemas
// are numbers; nil when it has none. An argument whose UsageText is its own is left a
// string (the usage may name it otherwise), as are all of them under a hand-written
// ArgsUsage.
func argMeta(c *cli.Command) map[string]json.RawMessage {
	if c.ArgsUsage != "" {
		return nil
	}
	types := map[string]string{}
	for _, a := range c.Arguments {
		v := reflect.ValueOf(a)
		if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
			continue
		}
		name, value, usage := v.Elem().FieldByName("Name"), v.Elem().FieldByName("Value"), v.Elem().FieldByName("UsageText")
		if name.Kind() != reflect.String || !value.IsValid() || usage.Kind() == reflect.String && usage.String() != "" {
			continue
		}
		switch scalarKind(value.Kind()) {
		case "int", "int64", "uint", "uint64":
			types[name.String()] = "integer"
		case "float64":
			types[name.String()] = "number"
		}
	}
	if len(types) == 0 {
		return nil
	}
	b, err := json.Marshal(types)
	if err != nil {
		return nil
	}
	return map[string]json.RawMessage{appspec.MetaArgTypes: b}
}

// flags describes the flags written at c's level. A flag of a command with served
// subcommands is written before them, where v3 reads it for them too; a Local one
// applies to that command alone and is left out there.
func (d *describer) flags(c *cli.Command, leaf bool, path []string) []appspec.Flag {
	var out []appspec.Flag
	for _, f := range c.Flags {
		if f == nil {
			continue
		}
		names := f.Names()
		if len(names) == 0 || names[0] == "help" || names[0] == "version" && c.Root() == c {
			continue
		}
		if l, ok := f.(cli.LocalFlag); ok && l.IsLocal() && !leaf {
			d.warnings = append(d.warnings, fmt.Sprintf("%s: --%s is left out: a local flag of a command with subcommands", strings.Join(path, " "), names[0]))
			continue
		}
		out = append(out, d.flag(f, strings.Join(path, " ")))
	}
	return out
}

var (
	durationType = reflect.TypeFor[time.Duration]()
	timeType     = reflect.TypeFor[time.Time]()
)

// flag describes one flag by the type of its value.
func (d *describer) flag(f cli.Flag, where string) appspec.Flag {
	names := f.Names()
	out := appspec.Flag{Name: names[0], Aliases: slices.Clone(names[1:])}
	if doc, ok := f.(cli.DocGenerationFlag); ok {
		out.Usage = doc.GetUsage()
		out.EnvVars = doc.GetEnvVars()
	}
	if r, ok := f.(cli.RequiredFlag); ok {
		out.Required = r.IsRequired()
	}
	if v, ok := f.(cli.VisibleFlag); ok {
		out.Hidden = !v.IsVisible()
	}
	out.TakesFile = takesFile(f)
	value := defaultOf(f)
	t := reflect.TypeOf(value)
	lossy := func(kind, how string) {
		out.Kind, out.Described = kind, fmt.Sprintf("%T: %s", f, how)
		d.warnings = append(d.warnings, fmt.Sprintf("%s: --%s (%T) is described as %s", where, out.Name, f, how))
	}
	switch {
	case t == nil:
		lossy("generic", "text the program parses")
		return out
	case t == durationType:
		out.Kind = "duration"
	case t == timeType:
		lossy("string", "text in the flag's layout")
		return out
	}
	if out.Kind == "" {
		switch t.Kind() {
		case reflect.Slice:
			if elem := scalarKind(t.Elem().Kind()); elem != "" && elem != "bool" {
				out.Kind = elem + "-slice"
			}
		case reflect.Map:
			lossy("string-slice", "a list of key=value items (one per occurrence)")
			out.KeepSpace = !trimsSpace(f)
			return out
		default:
			out.Kind = scalarKind(t.Kind())
		}
	}
	if out.Kind == "" {
		lossy("generic", "text the program parses (a type of its own)")
		return out
	}
	if out.Kind == "string" && trimsSpace(f) {
		d.trimmed = append(d.trimmed, out.Name)
	}
	if out.Kind == "string-slice" {
		// v3 hands a list's strings on as given unless its StringConfig says TrimSpace;
		// a trimmed list may not take a padded element (the adapter refuses one).
		out.KeepSpace = !trimsSpace(f)
	}
	if b, err := json.Marshal(value); err == nil && !isZero(value) {
		if t == durationType {
			b, _ = json.Marshal(int64(value.(time.Duration)))
		}
		out.Value = b
	}
	return out
}

// takesFile reads the TakesFile field of a flag (every v3 flag type built on FlagBase
// has one; shell completion offers files for it): the program declares the value a file
// or directory.
func takesFile(f cli.Flag) bool {
	v := reflect.ValueOf(f)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return false
	}
	tf := v.FieldByName("TakesFile")
	return tf.IsValid() && tf.Kind() == reflect.Bool && tf.Bool()
}

// trimsSpace reports whether f's StringConfig says TrimSpace: v3 then trims each value
// (a list's elements, a map's keys and values) of white space.
func trimsSpace(f cli.Flag) bool {
	v := reflect.ValueOf(f)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return false
	}
	c := v.FieldByName("Config")
	if !c.IsValid() || c.Kind() != reflect.Struct {
		return false
	}
	t := c.FieldByName("TrimSpace")
	return t.IsValid() && t.Kind() == reflect.Bool && t.Bool()
}

// scalarKind is the description's kind of a value of kind k ("" for none): the element
// kinds of the lists too ("int" makes "int-slice").
func scalarKind(k reflect.Kind) string {
	switch k {
	case reflect.Bool:
		return "bool"
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32:
		return "int"
	case reflect.Int64:
		return "int64"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return "uint"
	case reflect.Uint64:
		return "uint64"
	case reflect.Float32, reflect.Float64:
		return "float64"
	}
	return ""
}

// defaultOf is a flag's declared default: the Value field of v3's flag types, read
// without applying the flag (Get would read its sources, the environment among them).
func defaultOf(f cli.Flag) any {
	v := reflect.ValueOf(f)
	if v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().Kind() == reflect.Struct {
		if val := v.Elem().FieldByName("Value"); val.IsValid() && val.CanInterface() {
			return val.Interface()
		}
	}
	return nil
}

func isZero(v any) bool { return v == nil || reflect.ValueOf(v).IsZero() }
