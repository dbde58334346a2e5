package helptree

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/cmdbridge/cmdbridge/internal/appspec"
)

// A cobra program's help page (`PROGRAM [PATH…] --help`): a description, then titled
// sections, "Usage:" (its use line, "[flags]" and "[command]" marked), "Aliases:",
// "Available Commands:" (name and short), "Flags:" (the command's own and its persistent
// flags, in pflag's format) and "Global Flags:" (inherited ones).

// CobraPage is what one cobra help page says.
type CobraPage struct {
	Short    string
	Use      string // the use line: PROGRAM PATH… and what follows
	Aliases  []string
	Commands []Entry
	Flags    []CobraFlag // "Flags:"
	Global   []CobraFlag // "Global Flags:"
}

// CobraFlag is one line of pflag's usage table.
type CobraFlag struct {
	Name, Short, Type, Usage, Default string
	// Optional is the value a flag given without one takes ("[=auto]"), "" when none.
	Optional string
}

// LooksCobra reports whether text is a cobra help page.
func LooksCobra(text string) bool {
	return strings.Contains(text, "\nUsage:\n") && (strings.Contains(text, "\nFlags:\n") || strings.Contains(text, "\nAvailable Commands:\n"))
}

// ParseCobra parses a cobra help page.
func ParseCobra(text string) (*CobraPage, error) {
	if !LooksCobra("\n" + text) {
		return nil, &ErrNotHelp{Reason: "no cobra Usage and Flags sections"}
	}
	p := &CobraPage{}
	sections := map[string][]string{}
	var order []string // section titles in page order
	var cur string
	var head []string
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if t := strings.TrimSpace(line); strings.HasSuffix(t, ":") && !strings.HasPrefix(line, " ") && t != ":" {
			cur = strings.TrimSuffix(t, ":")
			order = append(order, cur)
			continue
		}
		if cur == "" {
			head = append(head, line)
			continue
		}
		sections[cur] = append(sections[cur], line)
	}
	p.Short = strings.TrimSpace(strings.SplitN(strings.TrimSpace(strings.Join(head, "\n")), "\n", 2)[0])
	for _, l := range sections["Usage"] {
		if t := strings.TrimSpace(l); t != "" && !strings.HasSuffix(t, "[command]") {
			p.Use = t
			break
		}
	}
	if p.Use == "" {
		for _, l := range sections["Usage"] {
			if t := strings.TrimSpace(l); t != "" {
				p.Use = t
				break
			}
		}
	}
	for _, l := range sections["Aliases"] {
		for i, a := range strings.Split(strings.TrimSpace(l), ",") {
			if a = strings.TrimSpace(a); a != "" && i > 0 { // the first is the command's name
				p.Aliases = append(p.Aliases, a)
			}
		}
	}
	for _, title := range order {
		if !commandSection(title, sections[title]) {
			continue
		}
		for _, l := range sections[title] {
			if f := strings.Fields(l); len(f) > 0 {
				p.Commands = append(p.Commands, Entry{Names: []string{f[0]}, Usage: strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), f[0]))})
			}
		}
	}
	p.Flags = cobraFlags(sections["Flags"])
	p.Global = cobraFlags(sections["Global Flags"])
	return p, nil
}

// pageSections are the sections of a cobra page that list no commands.
var pageSections = map[string]bool{"Usage": true, "Aliases": true, "Examples": true, "Flags": true,
	"Global Flags": true, "Additional help topics": true}

// commandSection reports whether a section lists commands: "Available Commands",
// "Additional Commands", or the title of a command group (cobra's AddGroup), whose
// every line is a name and its short description.
var commandLine = regexp.MustCompile(`^  \S+\s{2,}\S`)

func commandSection(title string, lines []string) bool {
	if title == "Available Commands" || title == "Additional Commands" {
		return true
	}
	if pageSections[title] {
		return false
	}
	seen := false
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if !commandLine.MatchString(l) {
			return false
		}
		seen = true
	}
	return seen
}

// cobraFlagLine is pflag's usage line: "  -t, --tag strings   usage (default [a])" or
// "      --color string[="auto"]   usage".
var cobraFlagLine = regexp.MustCompile(`^\s+(?:-(\w), )?--([\w.-]+)(?: ([\w.]+))?(\[=("?)([^\]]*?)("?)\])?\s{2,}(.*)$`)

var cobraDefault = regexp.MustCompile(`\s*\(default (.*)\)$`)

func cobraFlags(lines []string) []CobraFlag {
	var out []CobraFlag
	for _, l := range lines {
		m := cobraFlagLine.FindStringSubmatch(l)
		if m == nil {
			if t := strings.TrimSpace(l); t != "" && len(out) > 0 && strings.HasPrefix(l, "     ") {
				out[len(out)-1].Usage += " " + t // a usage continued on the next line
			}
			continue
		}
		f := CobraFlag{Short: m[1], Name: m[2], Type: m[3], Usage: strings.TrimSpace(m[8])}
		if m[4] != "" {
			f.Optional = m[6]
		}
		if d := cobraDefault.FindStringSubmatch(f.Usage); d != nil {
			f.Default = d[1]
			f.Usage = strings.TrimSpace(strings.TrimSuffix(f.Usage, d[0]))
		}
		out = append(out, f)
	}
	return out
}

// DiscoverCobra reads the command tree of a cobra program (see [Resolve]) from its
// help pages, `PROGRAM [PATH…] --help`, as the description the host serves (package
// appspec): a group's flags kept only where the pages below list them as global (its
// persistent ones), each by pflag's type name; help and completion left out. It returns the description and
// the program's path. It never runs a command otherwise, and every run is bounded
// (Config).
func DiscoverCobra(ctx context.Context, program string, opts Config) (*appspec.Tree, string, error) {
	opts = opts.withDefaults()
	exe, err := Resolve(program)
	if err != nil {
		return nil, "", err
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Total)
	defer cancel()
	d := &discoverer{exe: exe, name: program, opts: opts}
	read := func(path []string) (*CobraPage, error) {
		out, err := d.run(ctx, append(append([]string(nil), path...), "--help")...)
		if err != nil {
			return nil, err
		}
		return ParseCobra(string(out.stdout))
	}
	page, err := read(nil)
	if err != nil {
		return nil, "", fmt.Errorf("%s --help: %w", program, err)
	}
	name := strings.Fields(page.Use)[0]
	c := &cobraReader{read: read, opts: opts}
	t := &appspec.Tree{Format: appspec.Format, Name: name, HelpName: name, Usage: page.Short, HideHelpCommand: true}
	var global map[string]bool
	t.Commands, global = c.commands(page, nil, 0)
	if len(t.Commands) == 0 {
		t.HasAction = true
		t.ArgsUsage = cobraArgs(page.Use, nil)
		t.Flags = c.describe(page.Flags, nil)
	} else {
		t.Flags = c.describe(page.Flags, global)
	}
	t.Warnings = c.warnings
	return t, exe, nil
}

type cobraReader struct {
	read     func(path []string) (*CobraPage, error)
	opts     Config
	seen     int
	warnings []string
}

// commands describes the commands a page lists, and returns with them the names of the
// flags their pages list as global: the persistent flags of the commands above (a
// command's own page lists its persistent flags among its local ones).
func (c *cobraReader) commands(parent *CobraPage, path []string, depth int) ([]appspec.Command, map[string]bool) {
	var out []appspec.Command
	global := map[string]bool{}
	for _, e := range parent.Commands {
		name := e.Names[0]
		if name == "help" || name == "completion" || (c.opts.Skip != nil && c.opts.Skip(e)) {
			continue
		}
		p := append(append([]string(nil), path...), name)
		if c.seen++; c.seen > c.opts.Commands || depth >= c.opts.Depth {
			c.warnings = append(c.warnings, fmt.Sprintf("%s: left out (more commands or levels than discovery reads)", strings.Join(p, " ")))
			continue
		}
		page, err := c.read(p)
		if err != nil {
			c.warnings = append(c.warnings, fmt.Sprintf("%s --help: %v", strings.Join(p, " "), err))
			continue
		}
		for _, f := range page.Global {
			global[f.Name] = true
		}
		subs, below := c.commands(page, p, depth+1)
		for n := range below {
			global[n] = true
		}
		cmd := appspec.Command{Name: name, Aliases: page.Aliases, Usage: page.Short, HideHelpCommand: true, Subcommands: subs}
		if len(subs) == 0 {
			cmd.HasAction = true
			cmd.ArgsUsage = cobraArgs(page.Use, p)
			cmd.Flags = c.describe(page.Flags, nil)
		} else {
			// A group: its persistent flags, the ones the pages below list as global.
			cmd.Flags = c.describe(page.Flags, below)
		}
		out = append(out, cmd)
	}
	return out, global
}

// cobraArgs is what a use line says after the program and the path: the positionals.
func cobraArgs(use string, path []string) string {
	words := strings.Fields(use)
	if len(words) > 0 {
		words = words[1:]
	}
	for len(words) > 0 && len(path) > 0 && words[0] == path[0] {
		words, path = words[1:], path[1:]
	}
	var out []string
	for _, w := range words {
		if w != "[flags]" && w != "[command]" {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// describe maps pflag usage lines to flags, those named in keep (nil: all).
func (c *cobraReader) describe(fs []CobraFlag, keep map[string]bool) []appspec.Flag {
	var out []appspec.Flag
	for _, f := range fs {
		if f.Name == "help" || f.Name == "version" || (keep != nil && !keep[f.Name]) {
			continue
		}
		out = append(out, c.flag(f))
	}
	return out
}

// flag maps a usage line by pflag's type name (what FlagUsages prints: "strings" for a
// string slice, "int" for every integer width…).
func (c *cobraReader) flag(f CobraFlag) appspec.Flag {
	out := appspec.Flag{Name: f.Name, Usage: f.Usage}
	if f.Short != "" {
		out.Aliases = []string{f.Short}
	}
	lossy := func(kind, how string) {
		out.Kind, out.Described = kind, "pflag "+f.Type+": "+how
		c.warnings = append(c.warnings, fmt.Sprintf("--%s (%s) is described as %s", f.Name, f.Type, how))
	}
	if f.Optional != "" && f.Type != "" {
		lossy("bool", fmt.Sprintf("a switch giving its optional value %q", f.Optional))
		return out
	}
	raw := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	switch f.Type {
	case "":
		out.Kind = "bool"
		out.Value = raw(f.Default == "true")
	case "count":
		lossy("bool", "a switch: given, it counts once")
	case "string", "ip", "ipMask", "ipNet", "bytesHex", "bytesBase64":
		out.Kind = "string"
		if s, err := strconv.Unquote(f.Default); err == nil {
			out.Value = raw(s)
		} else if f.Default != "" {
			out.Value = raw(f.Default)
		}
	case "int", "int8", "int16", "int32":
		out.Kind = "int"
		if v, err := strconv.ParseInt(f.Default, 10, 64); err == nil {
			out.Value = raw(v)
		}
	case "uint", "uint8", "uint16", "uint32":
		out.Kind = "uint"
		if v, err := strconv.ParseUint(f.Default, 10, 64); err == nil {
			out.Value = raw(v)
		}
	case "float", "float32":
		out.Kind = "float64"
		if v, err := strconv.ParseFloat(f.Default, 64); err == nil {
			out.Value = raw(v)
		}
	case "duration":
		out.Kind = "duration"
		if v, err := time.ParseDuration(f.Default); err == nil {
			out.Value = raw(int64(v))
		}
	case "strings", "stringArray":
		out.Kind = "string-slice"
	case "ints", "int32Slice":
		out.Kind = "int-slice"
	case "int64Slice":
		out.Kind = "int64-slice"
	case "uints":
		out.Kind = "uint-slice"
	case "float32Slice", "float64Slice":
		out.Kind = "float64-slice"
	case "stringToString", "stringToInt", "stringToInt64":
		lossy("string-slice", "a list of key=value items (one per occurrence)")
	case "bools", "durationSlice", "ipSlice":
		lossy("string-slice", "a list of strings the program parses")
	default:
		lossy("string", "text the program parses (a type name of its own)")
	}
	return out
}
