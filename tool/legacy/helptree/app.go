package helptree

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
)

// App builds a fresh app that describes the tree: the program's name, usage, version and
// flags, and a stub command per command with its aliases, usage, description, category,
// positional usage and flags (types inferred, see [FlagOf]). A stub's action never
// does the command's work: it fails with exit status 70, so the app may be described
// but must only ever be served on the subprocess lane, which runs [Tree.Program].
func (t *Tree) App() *cli.App {
	p := t.Root.Page
	app := &cli.App{
		Name:        t.Name(),
		Usage:       p.Usage,
		Version:     p.Version,
		Description: p.Description,
	}
	app.Flags, _ = flagsOf(p.Flags)
	if len(t.Root.Children) == 0 {
		app.ArgsUsage, app.UsageText = argsUsage(p, app.Name, "[global options]")
		app.Action = stub(t.Program, nil)
		return app
	}
	app.UsageText = customUsage(p, app.Name, "[global options] command [command options]")
	for _, c := range t.Root.Children {
		app.Commands = append(app.Commands, t.command(c))
	}
	return app
}

// Name is the program's name as its help page spells it (the first word of NAME).
func (t *Tree) Name() string { return strings.Fields(t.Root.Page.HelpName)[0] }

func (t *Tree) command(n *Node) *cli.Command {
	c := &cli.Command{Name: n.Entry.Names[0], Aliases: append([]string(nil), n.Entry.Names[1:]...), Usage: n.Entry.Usage, Category: n.Entry.Category}
	if p := n.Page; p != nil {
		if p.Usage != "" {
			c.Usage = p.Usage
		}
		c.Description = p.Description
		c.Flags, _ = flagsOf(p.Flags)
		if len(n.Children) == 0 {
			c.ArgsUsage, c.UsageText = argsUsage(p, p.HelpName, "[command options]")
		} else {
			c.UsageText = customUsage(p, p.HelpName, "[command options]")
		}
	}
	for _, k := range n.Children {
		c.Subcommands = append(c.Subcommands, t.command(k))
	}
	if len(c.Subcommands) == 0 {
		c.Action = stub(t.Program, n.Path)
	}
	return c
}

// stub is a leaf's action: it refuses to run, since only the program knows the work.
func stub(program string, path []string) cli.ActionFunc {
	return func(*cli.Context) error {
		return cli.Exit(fmt.Sprintf("%s: this command was read from %s's help and only describes it: run the program itself (the subprocess lane)",
			strings.Join(append([]string{"wrap"}, path...), " "), program), 70)
	}
}

// argsUsage splits a leaf's USAGE line printed by the default template, "HELPNAME
// [options] ARGSUSAGE", into ArgsUsage; a line in another shape is the command's
// UsageText. "[arguments...]" (urfave's filler for an undeclared usage) is no usage.
func argsUsage(p *Page, helpName, options string) (args, usageText string) {
	line := p.UsageLine
	if strings.Contains(line, "\n") || !(line == helpName || strings.HasPrefix(line, helpName+" ")) {
		return "", line
	}
	rest := strings.TrimSpace(strings.TrimPrefix(line, helpName))
	rest = strings.TrimSpace(strings.TrimPrefix(rest, options))
	if rest == "[arguments...]" {
		return "", ""
	}
	return rest, ""
}

// customUsage is a group's (or the app's) UsageText when its USAGE line is not the
// default template's ("HELPNAME [options]", followed by nothing).
func customUsage(p *Page, helpName, options string) string {
	line := p.UsageLine
	if line == helpName || line == helpName+" "+options || line == helpName+" command [command options]" {
		return ""
	}
	return line
}

// flagsOf maps a page's flag lines ([FlagOf]), with a warning per line it mapped by
// guess.
func flagsOf(fs []Flag) ([]cli.Flag, []string) {
	var out []cli.Flag
	var warnings []string
	for _, f := range fs {
		cf, w := FlagOf(f)
		out = append(out, cf)
		if w != "" {
			warnings = append(warnings, w)
		}
	}
	return out, warnings
}

// FlagOf makes the urfave/cli flag a help line describes. Help prints no type, so it
// is inferred: no placeholder is a bool (its default "true" or "false"); the "[ … ]"
// repetition is a slice (of ints or floats when the printed default is a list of them,
// else of strings); a quoted default is a string's; an unquoted default is an int's, a
// float's or a duration's when it parses as one; anything else is a string (its
// default kept as printed). warning is set when a printed default could not be read.
func FlagOf(f Flag) (flag cli.Flag, warning string) {
	name := f.Names[0]
	var aliases []string
	if len(f.Names) > 1 {
		aliases = append(aliases, f.Names[1:]...)
	}
	usage := quotePlaceholder(f.Usage, f.Placeholder)
	def := f.Default
	unread := func(kind string) string {
		return fmt.Sprintf("flag --%s: its default %q is not a %s's as urfave/cli prints it: the schema gives none", name, def, kind)
	}
	switch {
	case f.Placeholder == "":
		b := &cli.BoolFlag{Name: name, Aliases: aliases, Usage: usage, EnvVars: f.EnvVars}
		switch def {
		case "true":
			b.Value = true
		case "false", "":
		default:
			warning = unread("bool")
		}
		return b, warning
	case f.Slice:
		if def == "" {
			return &cli.StringSliceFlag{Name: name, Aliases: aliases, Usage: usage, EnvVars: f.EnvVars}, ""
		}
		if vals, ok := quotedList(def); ok {
			return &cli.StringSliceFlag{Name: name, Aliases: aliases, Usage: usage, EnvVars: f.EnvVars, Value: cli.NewStringSlice(vals...)}, ""
		}
		parts := strings.Split(def, ", ")
		if ints, ok := parseAll(parts, strconv.Atoi); ok {
			return &cli.IntSliceFlag{Name: name, Aliases: aliases, Usage: usage, EnvVars: f.EnvVars, Value: cli.NewIntSlice(ints...)}, ""
		}
		if fl, ok := parseAll(parts, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }); ok {
			return &cli.Float64SliceFlag{Name: name, Aliases: aliases, Usage: usage, EnvVars: f.EnvVars, Value: cli.NewFloat64Slice(fl...)}, ""
		}
		return &cli.StringSliceFlag{Name: name, Aliases: aliases, Usage: usage, EnvVars: f.EnvVars}, unread("list")
	}
	if def == "" {
		return &cli.StringFlag{Name: name, Aliases: aliases, Usage: usage, EnvVars: f.EnvVars}, ""
	}
	if s, err := strconv.Unquote(def); err == nil && strings.HasPrefix(def, `"`) {
		return &cli.StringFlag{Name: name, Aliases: aliases, Usage: usage, EnvVars: f.EnvVars, Value: s}, ""
	}
	if i, err := strconv.Atoi(def); err == nil {
		return &cli.IntFlag{Name: name, Aliases: aliases, Usage: usage, EnvVars: f.EnvVars, Value: i}, ""
	}
	if x, err := strconv.ParseFloat(def, 64); err == nil {
		return &cli.Float64Flag{Name: name, Aliases: aliases, Usage: usage, EnvVars: f.EnvVars, Value: x}, ""
	}
	if d, err := time.ParseDuration(def); err == nil {
		return &cli.DurationFlag{Name: name, Aliases: aliases, Usage: usage, EnvVars: f.EnvVars, Value: d}, ""
	}
	return &cli.StringFlag{Name: name, Aliases: aliases, Usage: usage, EnvVars: f.EnvVars, Value: def}, ""
}

func parseAll[T any](parts []string, parse func(string) (T, error)) ([]T, bool) {
	var out []T
	for _, p := range parts {
		v, err := parse(p)
		if err != nil {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// quotePlaceholder puts back the backticks urfave/cli took from a usage to name its
// placeholder ("database `URL`"), so the usage reads as the program wrote it. "value"
// is urfave's own placeholder, never from the usage.
func quotePlaceholder(usage, placeholder string) string {
	if placeholder == "" || placeholder == "value" {
		return usage
	}
	word := func(b byte) bool {
		return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	}
	for i := 0; i+len(placeholder) <= len(usage); i++ {
		j := i + len(placeholder)
		if usage[i:j] == placeholder && (i == 0 || !word(usage[i-1])) && (j == len(usage) || !word(usage[j])) {
			return usage[:i] + "`" + placeholder + "`" + usage[j:]
		}
	}
	return usage
}

// Warnings are the tree's warnings by tool name as legacy.FromApp names the leaves
// (the path joined with ":", the program's name for an app without commands): each
// leaf gets its own and those of the commands above it, the app's included, since what
// could not be read there is missing from it too.
func (t *Tree) Warnings() map[string][]string {
	out := map[string][]string{}
	var walk func(n *Node, inherited []string)
	walk = func(n *Node, inherited []string) {
		own := n.Warnings
		if n.Page != nil {
			_, fw := flagsOf(n.Page.Flags)
			own = append(append([]string(nil), own...), fw...)
		}
		ws := append([]string(nil), inherited...)
		where := strings.Join(append([]string{t.Name()}, n.Path...), " ")
		for _, w := range own {
			ws = append(ws, where+": "+w)
		}
		if len(n.Children) == 0 {
			name := strings.Join(n.Path, ":")
			if n.Path == nil {
				name = t.Name()
			}
			if len(ws) > 0 {
				out[name] = ws
			}
			return
		}
		for _, c := range n.Children {
			walk(c, ws)
		}
	}
	walk(t.Root, nil)
	return out
}
