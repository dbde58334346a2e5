package helptree

import (
	"fmt"
	"strconv"
	"strings"
)

// Page is one help page of a urfave/cli v2 program as its default templates print it:
// the app's (`PROGRAM --help`) or a command's (`PROGRAM CMD… --help`).
type Page struct {
	// HelpName is the first part of the NAME section ("dbkit", "gizmo notes add");
	// Usage what follows " - ".
	HelpName, Usage string
	// UsageLine is the USAGE section as printed (several lines joined by "\n").
	UsageLine string
	// Version is the VERSION section (the app's page only).
	Version string
	// Description is the DESCRIPTION section, its indentation removed.
	Description string
	// Category is the CATEGORY section (a command's page).
	Category string
	// Commands are the entries of the COMMANDS section, the help command left out;
	// HelpCommand says whether it was listed (`PROGRAM CMD… help NAME` then works).
	Commands    []Entry
	HelpCommand bool
	// Flags are the OPTIONS (or, on the app's page, GLOBAL OPTIONS) lines, help (and
	// the app's version flag) left out.
	Flags []Flag
	// Sections are the section headings met, in order ("NAME", "USAGE", …).
	Sections []string
	// Warnings are lines it could not read, one sentence each.
	Warnings []string
}

// Entry is one line of a COMMANDS section.
type Entry struct {
	Names    []string // the name, then its aliases
	Usage    string
	Category string
}

// Flag is one line of an OPTIONS section: `--url URL, -u URL  database URL (file:PATH)
// (default: "x") [$DATABASE_URL]`.
type Flag struct {
	Names       []string // without dashes; the first is the name
	Placeholder string   // "" for a flag that takes no value (a boolean)
	Slice       bool     // the line repeats itself as "[ --x V ]": the flag may be given many times
	Usage       string   // the usage, default and env hint removed
	Default     string   // the text of "(default: …)", "" when none is printed
	HasDefault  bool
	EnvVars     []string
}

// Has reports whether the page has the section heading.
func (p *Page) Has(section string) bool {
	for _, s := range p.Sections {
		if s == section {
			return true
		}
	}
	return false
}

// ErrNotHelp is returned by [Parse] for text that is no urfave/cli help page.
type ErrNotHelp struct{ Reason string }

func (e *ErrNotHelp) Error() string { return "not a urfave/cli v2 help page: " + e.Reason }

// helpUsage is the usage urfave/cli gives its help command; versionUsage its version flag.
const (
	helpUsage    = "Shows a list of commands or help for one command"
	versionUsage = "print the version"
)

// Parse reads one help page. It fails with [ErrNotHelp] when the text has no NAME and
// USAGE sections; anything else it cannot read is a warning of the page.
func Parse(text string) (*Page, error) {
	p := &Page{}
	sections := map[string][]string{}
	var cur string
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if h, ok := heading(line); ok {
			cur = h
			p.Sections = append(p.Sections, h)
			continue
		}
		if cur != "" {
			sections[cur] = append(sections[cur], line)
		}
	}
	if !p.Has("NAME") || !p.Has("USAGE") {
		first := strings.TrimSpace(strings.SplitN(strings.TrimSpace(text), "\n", 2)[0])
		if first == "" {
			return nil, &ErrNotHelp{Reason: "it printed nothing"}
		}
		return nil, &ErrNotHelp{Reason: fmt.Sprintf("no NAME: and USAGE: sections (it begins %q)", clip(first, 80))}
	}
	name := strings.Join(block(sections["NAME"]), " ")
	p.HelpName, p.Usage, _ = strings.Cut(name, " - ")
	p.HelpName, p.Usage = strings.TrimSpace(p.HelpName), strings.TrimSpace(p.Usage)
	if p.HelpName == "" {
		return nil, &ErrNotHelp{Reason: "its NAME section is empty"}
	}
	p.UsageLine = strings.Join(block(sections["USAGE"]), "\n")
	p.Version = strings.Join(block(sections["VERSION"]), " ")
	p.Description = strings.Join(block(sections["DESCRIPTION"]), "\n")
	p.Category = strings.Join(block(sections["CATEGORY"]), " ")
	p.commands(sections["COMMANDS"])
	root := p.Has("GLOBAL OPTIONS")
	p.flags(sections["GLOBAL OPTIONS"], root)
	p.flags(sections["OPTIONS"], false)
	return p, nil
}

// heading recognises a section heading: upper-case words and a colon at column 0
// ("NAME:", "GLOBAL OPTIONS:", "AUTHORS:").
func heading(line string) (string, bool) {
	if !strings.HasSuffix(line, ":") || len(line) < 2 {
		return "", false
	}
	h := line[:len(line)-1]
	for _, r := range h {
		if (r < 'A' || r > 'Z') && r != ' ' {
			return "", false
		}
	}
	return h, h[0] != ' '
}

// block is a section's lines without their 3-space indentation and the blank lines
// around them.
func block(lines []string) []string {
	var out []string
	for _, l := range lines {
		out = append(out, strings.TrimPrefix(l, "   "))
	}
	for len(out) > 0 && strings.TrimSpace(out[0]) == "" {
		out = out[1:]
	}
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	return out
}

func indent(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// columns splits a tabwriter-aligned line at its first run of two or more spaces.
func columns(s string) (left, right string) {
	if i := strings.Index(s, "  "); i >= 0 {
		return s[:i], strings.TrimSpace(s[i:])
	}
	return s, ""
}

// commands reads a COMMANDS section: "   name, alias  usage" lines, or, with categories,
// "   Category:" headings over "     name, alias  usage" lines. A line indented
// deeper than a command continues the previous usage.
func (p *Page) commands(lines []string) {
	category := ""
	for _, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		text := strings.TrimSpace(line)
		in := indent(line)
		left, right := columns(text)
		switch {
		case in == 3 && right == "" && strings.HasSuffix(text, ":"):
			category = strings.TrimSuffix(text, ":")
			continue
		case in > 5 || (in > 3 && category == ""):
			if n := len(p.Commands); n > 0 {
				p.Commands[n-1].Usage = strings.TrimSpace(p.Commands[n-1].Usage + "\n" + text)
			}
			continue
		case in < 3:
			p.Warnings = append(p.Warnings, fmt.Sprintf("COMMANDS line %q is not indented as urfave/cli indents commands: left out", clip(text, 80)))
			continue
		}
		if in == 3 && category != "" {
			category = "" // back to commands without a category (printed before the named ones, but be lenient)
		}
		var names []string
		for _, n := range strings.Split(left, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
		if len(names) == 0 || strings.ContainsAny(strings.Join(names, ""), " \t") {
			p.Warnings = append(p.Warnings, fmt.Sprintf("COMMANDS line %q does not start with a command's names: left out", clip(text, 80)))
			continue
		}
		if names[0] == "help" && (right == helpUsage || right == "") {
			p.HelpCommand = true
			continue
		}
		p.Commands = append(p.Commands, Entry{Names: names, Usage: right, Category: category})
	}
}

// flags reads an OPTIONS section. A line starting with "-" is a flag; a line indented
// deeper continues the previous flag's usage (a usage with newlines); any other line
// is a flag category's heading.
func (p *Page) flags(lines []string, root bool) {
	for _, line := range lines {
		text := strings.TrimSpace(line)
		if text == "" {
			continue
		}
		if !strings.HasPrefix(text, "-") {
			if indent(line) > 3 && len(p.Flags) > 0 {
				f := &p.Flags[len(p.Flags)-1]
				f.Usage = strings.TrimSpace(f.Usage + "\n" + text)
			}
			continue
		}
		f, err := parseFlag(text)
		if err != nil {
			p.Warnings = append(p.Warnings, fmt.Sprintf("option line %q: %v: not an input", clip(text, 80), err))
			continue
		}
		switch {
		case f.Names[0] == "help" && f.Placeholder == "":
			continue
		case root && f.Names[0] == "version" && f.Placeholder == "" && f.Usage == versionUsage:
			continue
		}
		p.Flags = append(p.Flags, f)
	}
}

// parseFlag reads one flag line as urfave/cli's default FlagStringer writes it: the
// names with the placeholder ("--url URL, -u URL"), repeated in "[ … ]" for a slice
// flag, two spaces, the usage, " (default: …)" and " [$ENV, $ENV2]".
func parseFlag(text string) (Flag, error) {
	var f Flag
	head, rest := columns(text)
	if i := strings.Index(head, " [ "); i >= 0 {
		if !strings.HasSuffix(head, " ]") || head[i+3:len(head)-2] != head[:i] {
			return f, fmt.Errorf("its repetition %q does not repeat its names", head[i:])
		}
		f.Slice, head = true, head[:i]
	}
	for i, part := range strings.Split(head, ", ") {
		word, placeholder, _ := strings.Cut(part, " ")
		name := strings.TrimLeft(word, "-")
		if dashes := len(word) - len(name); name == "" || dashes < 1 || dashes > 2 {
			return f, fmt.Errorf("%q is not a flag name", part)
		}
		if i == 0 {
			f.Placeholder = placeholder
		} else if placeholder != f.Placeholder {
			return f, fmt.Errorf("its names have different placeholders (%q, %q)", f.Placeholder, placeholder)
		}
		f.Names = append(f.Names, name)
	}
	if strings.HasSuffix(rest, "]") {
		if i := strings.LastIndex(rest, "[$"); i >= 0 {
			var envs []string
			ok := true
			for _, e := range strings.Split(rest[i+1:len(rest)-1], ", ") {
				e = strings.TrimPrefix(e, "$")
				if e == "" || strings.ContainsAny(e, " $") {
					ok = false
					break
				}
				envs = append(envs, e)
			}
			if ok {
				f.EnvVars, rest = envs, strings.TrimSpace(rest[:i])
			}
		}
	}
	if strings.HasSuffix(rest, ")") {
		if i := strings.LastIndex(rest, "(default: "); i >= 0 {
			f.Default, f.HasDefault = rest[i+len("(default: "):len(rest)-1], true
			rest = strings.TrimSpace(rest[:i])
		}
	}
	f.Usage = rest
	return f, nil
}

// quotedList reads a default printed as Go-quoted strings joined by ", " (a string or
// string slice flag's): ok is false when it is anything else.
func quotedList(s string) (vals []string, ok bool) {
	for s != "" {
		if s[0] != '"' {
			return nil, false
		}
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return nil, false
		}
		v, _ := strconv.Unquote(q)
		vals = append(vals, v)
		s = s[len(q):]
		if s == "" {
			break
		}
		if !strings.HasPrefix(s, ", ") {
			return nil, false
		}
		s = s[2:]
	}
	return vals, len(vals) > 0
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
