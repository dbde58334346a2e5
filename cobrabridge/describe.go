package cobrabridge

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cmdbridge/cmdbridge/internal/adopted"
	"github.com/cmdbridge/cmdbridge/internal/appspec"
)

// manifest prints the program's manifest on the bridge command's stdout.
func manifest(bridge, root *cobra.Command, c Config) error {
	m, err := adopted.NewManifest(bridge.Name(), c, Describe(root, bridge))
	if err == nil {
		err = adopted.Print(bridge.OutOrStdout(), m)
	}
	if err != nil {
		return fmt.Errorf("%s %s: %v", root.Name(), bridge.Name(), err)
	}
	return nil
}

// Describe is the description of root's command tree the host serves (package
// appspec, the shape urfave/cli v2 programs describe themselves in): skip (may be nil)
// is left out with its subtree, as are help, completion and hidden or deprecated
// commands. Warnings name what could not be described exactly.
func Describe(root, skip *cobra.Command) *appspec.Tree {
	d := &describer{skip: skip}
	t := &appspec.Tree{
		Format:          appspec.Format,
		Name:            root.Name(),
		HelpName:        root.Name(),
		Usage:           root.Short,
		Description:     root.Long,
		Version:         root.Version,
		ArgsUsage:       argsUsage(root),
		SkipFlagParsing: root.DisableFlagParsing,
		HideHelpCommand: true,
		HasAction:       root.Runnable(),
	}
	subs := d.commands(root, []string{root.Name()})
	t.Flags = d.flags(root, len(subs) == 0, []string{root.Name()})
	t.Commands = subs
	t.Warnings = d.warnings
	return t
}

type describer struct {
	skip     *cobra.Command
	warnings []string
}

// commands describes the subcommands of c that are served.
func (d *describer) commands(c *cobra.Command, path []string) []appspec.Command {
	var out []appspec.Command
	for _, sub := range c.Commands() {
		if sub == d.skip || !sub.IsAvailableCommand() || isCompletion(sub) {
			continue
		}
		p := append(append([]string(nil), path...), sub.Name())
		subs := d.commands(sub, p)
		if !sub.Runnable() && len(subs) == 0 {
			continue
		}
		out = append(out, appspec.Command{
			Name:            sub.Name(),
			Aliases:         append([]string(nil), sub.Aliases...),
			Usage:           sub.Short,
			Description:     sub.Long,
			ArgsUsage:       argsUsage(sub),
			SkipFlagParsing: sub.DisableFlagParsing,
			HideHelpCommand: true,
			HasAction:       sub.Runnable(),
			Package:         appspec.PackageOf(sub.RunE, sub.Run),
			Flags:           d.flags(sub, len(subs) == 0, p),
			Subcommands:     subs,
		})
	}
	return out
}

// isCompletion reports whether c is cobra's default completion command.
func isCompletion(c *cobra.Command) bool {
	if c.Name() != "completion" {
		return false
	}
	for _, s := range c.Commands() {
		if s.Name() == "bash" {
			return true
		}
	}
	return false
}

// argsUsage is what a command's Use line says after its name: its positionals.
func argsUsage(c *cobra.Command) string {
	_, rest, _ := strings.Cut(strings.TrimSpace(c.Use), " ")
	rest = strings.TrimSpace(strings.ReplaceAll(rest, "[flags]", ""))
	if usage := strings.Join(strings.Fields(rest), " "); usage != "" {
		return usage
	}
	return arity(c)
}

// choiceWord is a word the usage convention reads as one of an enum's values.
var choiceWord = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// choices are a command's ValidArgs (their descriptions cut) when every one is such a
// word, else none.
func choices(valid []string) []string {
	var out []string
	for _, v := range valid {
		v, _, _ = strings.Cut(v, "\t")
		if !choiceWord.MatchString(v) {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// arity is what a command's Args validator says of its positionals when its Use line
// names none, in the positional grammar the schema reads: " " for none (cobra.NoArgs,
// ExactArgs(0)); the ValidArgs words as an enum for exactly one; for a range of counts
// (ExactArgs, RangeArgs, MaximumNArgs up to three) that many placeholders, the ones
// beyond the minimum optional ("ARG1 [ARG2]"); for a minimum with no maximum
// (MinimumNArgs, ArbitraryArgs) the minimum's placeholders, the last a list ("ARG...",
// "[ARG...]"); "" when it says none of these (no validator, counts that are not a
// range, more than three), which serves the generic args list. Validators are
// functions, so it asks them: with 0 to 5 placeholder arguments (the command's first
// ValidArgs entry, else "x"), a validator that panics saying nothing; accepting five
// counts as accepting any number.
func arity(c *cobra.Command) string {
	if c.Args == nil {
		return ""
	}
	placeholder := "x"
	if len(c.ValidArgs) > 0 {
		placeholder, _, _ = strings.Cut(c.ValidArgs[0], "\t") // "value\tdescription"
	}
	accepts := func(n int) (ok bool) {
		defer func() {
			if recover() != nil {
				ok = false
			}
		}()
		args := make([]string, n)
		for i := range args {
			args[i] = placeholder
		}
		return c.Args(c, args) == nil
	}
	var counts []int
	for n := 0; n <= 5; n++ {
		if accepts(n) {
			counts = append(counts, n)
		}
	}
	if len(counts) == 0 {
		return ""
	}
	lo, hi := counts[0], counts[len(counts)-1]
	unbounded := hi == 5 && lo < 5 // four and five: any number (five alone: ExactArgs(5))
	switch {
	case hi-lo+1 != len(counts), !unbounded && hi > 3, unbounded && lo > 3:
		return ""
	case hi == 0:
		return " "
	case lo == 1 && hi == 1 && len(choices(c.ValidArgs)) > 0:
		return strings.Join(choices(c.ValidArgs), "|") // one of its ValidArgs: an enum
	}
	name := func(i, total int) string {
		if total == 1 {
			return "ARG"
		}
		return fmt.Sprintf("ARG%d", i)
	}
	var toks []string
	if unbounded {
		total := max(lo, 1)
		for i := 1; i < total; i++ {
			toks = append(toks, name(i, total))
		}
		last := name(total, total) + "..."
		if lo == 0 {
			last = "[" + last + "]"
		}
		return strings.Join(append(toks, last), " ")
	}
	for i := 1; i <= hi; i++ {
		t := name(i, hi)
		if i > lo {
			t = "[" + t + "]"
		}
		toks = append(toks, t)
	}
	return strings.Join(toks, " ")
}

// flags describes the flags written at c's level: its own persistent flags (which
// every command below accepts too) and, for a command without served subcommands, its
// local ones. cobra's own help and version flags are left out.
func (d *describer) flags(c *cobra.Command, leaf bool, path []string) []appspec.Flag {
	var out []appspec.Flag
	add := func(f *pflag.Flag) {
		if f.Name == "help" || f.Name == "version" && c.Root() == c && c.Version != "" {
			return
		}
		out = append(out, d.flag(f, strings.Join(path, " ")))
	}
	c.PersistentFlags().VisitAll(add)
	if leaf {
		c.LocalNonPersistentFlags().VisitAll(add)
	} else if c.Runnable() {
		c.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "help" {
				d.warnings = append(d.warnings, fmt.Sprintf("%s: --%s is left out: a command with subcommands is served without its local flags", strings.Join(path, " "), f.Name))
			}
		})
	}
	return out
}

// requiredAnnotation is the annotation cobra's MarkFlagRequired sets.
const requiredAnnotation = cobra.BashCompOneRequiredFlag

// flag describes one pflag flag by the type its Value reports.
func (d *describer) flag(f *pflag.Flag, where string) appspec.Flag {
	out := appspec.Flag{Name: f.Name, Usage: f.Usage, Hidden: f.Hidden || f.Deprecated != ""}
	if f.Shorthand != "" && f.ShorthandDeprecated == "" {
		out.Aliases = []string{f.Shorthand}
	}
	if v := f.Annotations[requiredAnnotation]; len(v) == 1 && v[0] == "true" {
		out.Required = true
	}
	// MarkFlagFilename and MarkFlagDirname: the program declares the value a file or
	// directory.
	_, file := f.Annotations[cobra.BashCompFilenameExt]
	_, dir := f.Annotations[cobra.BashCompSubdirsInDir]
	out.TakesFile = file || dir
	typ := f.Value.Type()
	lossy := func(kind, how string) {
		out.Kind, out.Described = kind, "pflag "+typ+": "+how
		d.warnings = append(d.warnings, fmt.Sprintf("%s: --%s (%s) is described as %s", where, f.Name, typ, how))
	}
	switch typ {
	case "bool":
		out.Kind = "bool"
		out.Value = jsonOf(f.DefValue == "true")
		return out
	case "count":
		lossy("bool", "a switch: given, it counts once")
		return out
	}
	if f.NoOptDefVal != "" {
		lossy("bool", fmt.Sprintf("a switch giving its optional value %q", f.NoOptDefVal))
		return out
	}
	switch typ {
	case "string", "ip", "ipMask", "ipNet", "bytesHex", "bytesBase64":
		out.Kind = "string"
		if f.DefValue != "" && f.DefValue != "<nil>" {
			out.Value = jsonOf(f.DefValue)
		}
	case "int", "int8", "int16", "int32":
		out.Kind = "int"
		out.Value = intValue(f.DefValue)
	case "int64":
		out.Kind = "int64"
		out.Value = intValue(f.DefValue)
	case "uint", "uint8", "uint16", "uint32":
		out.Kind = "uint"
		out.Value = intValue(f.DefValue)
	case "uint64":
		out.Kind = "uint64"
		out.Value = intValue(f.DefValue)
	case "float32", "float64":
		out.Kind = "float64"
		if v, err := strconv.ParseFloat(f.DefValue, 64); err == nil {
			out.Value = jsonOf(v)
		}
	case "duration":
		out.Kind = "duration"
		if v, err := time.ParseDuration(f.DefValue); err == nil {
			out.Value = jsonOf(int64(v))
		}
	case "stringSlice", "stringArray":
		out.Kind = "string-slice"
		out.KeepSpace = true // pflag trims no element (the adapter refuses none padded)
		out.Value = listValue(f.DefValue, func(s string) (any, bool) { return s, true })
	case "intSlice", "int32Slice":
		out.Kind = "int-slice"
		out.Value = listValue(f.DefValue, parseInt)
	case "int64Slice":
		out.Kind = "int64-slice"
		out.Value = listValue(f.DefValue, parseInt)
	case "uintSlice":
		out.Kind = "uint-slice"
		out.Value = listValue(f.DefValue, parseInt)
	case "float32Slice", "float64Slice":
		out.Kind = "float64-slice"
		out.Value = listValue(f.DefValue, func(s string) (any, bool) {
			v, err := strconv.ParseFloat(s, 64)
			return v, err == nil
		})
	case "stringToString", "stringToInt", "stringToInt64":
		lossy("string-slice", "a list of key=value items (one per occurrence)")
		out.KeepSpace = typ == "stringToString"
	case "boolSlice", "durationSlice", "ipSlice":
		lossy("string-slice", "a list of strings the program parses")
	default:
		lossy("generic", "text the program parses (a type of its own)")
		if f.DefValue != "" {
			out.Value = jsonOf(f.DefValue)
		}
	}
	return out
}

func jsonOf(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

func parseInt(s string) (any, bool) {
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil
}

// intValue is an integer default, or none when DefValue is not one.
func intValue(s string) json.RawMessage {
	if v, ok := parseInt(s); ok {
		return jsonOf(v)
	}
	return nil
}

// listValue is a list default from pflag's "[a,b]" form, or none when it is empty or
// an item does not parse.
func listValue(s string, parse func(string) (any, bool)) json.RawMessage {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	if s == "" {
		return nil
	}
	var items []any
	for _, part := range strings.Split(s, ",") {
		v, ok := parse(part)
		if !ok {
			return nil
		}
		items = append(items, v)
	}
	return jsonOf(items)
}
