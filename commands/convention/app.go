package convention

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// MetaArgs is the cli.App.Metadata key holding the command's positionals as
// []map[string]any{{"name": "ref", "required": false, "passthrough": false}}, in order:
// the tool input field each positional becomes (corpus §2.6). A command with a passthrough
// after "--" declares it as the last entry with "passthrough": true. A positional with a
// choice list also has "choices": []string (the enum its schema should carry).
const MetaArgs = "cmdbridge.args"

// metaSpec holds the *Spec an app was built from, for the runner; metaRuntime the
// *delivery.Runtime Run created for the invocation.
const (
	metaSpec    = "convention.spec"
	metaRuntime = "convention.runtime"
)

// Spec is a command's one declaration: its flag table, positionals, combination rules,
// tool annotations and action. The adapter derives the tool schema from the app built
// from it, so nothing else needs to describe the command.
type Spec struct {
	// Name is the canonical command name (file:read).
	Name string
	// Usage is the one-line description shown in listings and tool descriptions.
	Usage string
	// Flags is the flag table in spec order. --json is added by App.
	Flags []cli.Flag
	// Args are the positionals in order.
	Args []Arg
	// Rules are the combination rules, checked after required flags, in order.
	Rules []Rule
	// Enforces are rules the action (or a flag's action) checks itself, with its own
	// message: argv checking skips them, but like Rules they are published in
	// legacy.MetaConstraints, so the tool schema carries them.
	Enforces []Rule
	// ReadOnly, Destructive, Idempotent and Network become the tool annotations.
	ReadOnly, Destructive, Idempotent, Network bool
	// OpenWorld: the command reaches beyond the workspace's own data; it becomes
	// openWorldHint (as Network and RunsCode do).
	OpenWorld bool
	// RunsCode: the command runs code the workspace defines or the caller passes
	// (gates, wu:prep, wu:done, wu:sandbox); it becomes runsCodeHint
	// (legacy.MetaRunsCode). Effects say which inputs run none (wu:done --skip-gates).
	RunsCode bool
	// Effects are the inputs that make a call less than the worst case above (a dry
	// run is read-only); see tool.Effect.
	Effects []tool.Effect
	// Paths maps input properties naming files to "read" or "write".
	Paths map[string]string
	// Action runs the command once argv has been accepted.
	Action func(*Call) error
}

// Arg is a positional argument.
type Arg struct {
	// Name is the tool input field (ref); usage messages show it upper-cased (REF).
	Name string
	// Required makes its absence a usage error.
	Required bool
	// Passthrough takes every argument after "--" (wu:sandbox's command).
	Passthrough bool
	// Choices, when set, is the positional's type (spec a|b|c): any other value is a
	// usage error found in the argv phase, and the list is published in [MetaArgs].
	Choices []string
	// Usage is what the positional holds, its tool-side description (published in
	// legacy.MetaArgDescriptions; the CLI help only names it).
	Usage string
	// LeadingDash lets a tool caller give a value beginning with "-" (published in
	// legacy.MetaArgLeadingDash). Without it the tool schema refuses such a value, so
	// nothing a caller sends reaches the command, or a program it runs, as an option.
	// Set it only for a value the action reads as a value and never hands on where it
	// could be read as an option.
	LeadingDash bool
}

// Rule is a combination rule between flags (corpus §2.1).
type Rule struct {
	kind   ruleKind
	flags  []string
	values []string // RequiresWhen: the values of flags[0] the rule applies to
}

type ruleKind int

const (
	ruleExclusive ruleKind = iota
	ruleOneOf
	ruleRequires
	ruleTogether
	ruleRequired
)

// Exclusive: flags a and b cannot be used together.
func Exclusive(a, b string) Rule { return Rule{kind: ruleExclusive, flags: []string{a, b}} }

// OneOf: at least one of the flags is required.
func OneOf(flags ...string) Rule { return Rule{kind: ruleOneOf, flags: flags} }

// Requires: flag a may only be used with flag b.
func Requires(a, b string) Rule { return Rule{kind: ruleRequires, flags: []string{a, b}} }

// Together: flags a and b are used both or neither; checked as Requires(a, b) then
// Requires(b, a).
func Together(a, b string) Rule { return Rule{kind: ruleTogether, flags: []string{a, b}} }

// Required: the flag or positional name must be given (for [Spec.Enforces]: a
// flag-or-positional or a passthrough the action checks).
func Required(name string) Rule { return Rule{kind: ruleRequired, flags: []string{name}} }

// RequiresWhen: flag b is required when flag a has one of values (for [Spec.Enforces]:
// argv checking does not see values).
func RequiresWhen(a string, values []string, b string) Rule {
	return Rule{kind: ruleRequires, flags: []string{a, b}, values: values}
}

// constraint is r as a tool constraint over names (flags or positionals).
func (r Rule) constraint() tool.Constraint {
	kinds := map[ruleKind]tool.ConstraintKind{ruleExclusive: tool.Exclusive, ruleOneOf: tool.AnyOf,
		ruleRequires: tool.Requires, ruleTogether: tool.Together, ruleRequired: tool.Required}
	c := tool.Constraint{Kind: kinds[r.kind], Properties: append([]string(nil), r.flags...)}
	for _, v := range r.values {
		c.Values = append(c.Values, v)
	}
	return c
}

// App builds the command's *cli.App from its declaration. It adds --json, disables the
// slice separator, the help subcommand and urfave/cli's own usage-error output, and sets
// the Metadata keys of commands/meta.go.
func App(s Spec) *cli.App {
	spec := s
	flags := append(append([]cli.Flag(nil), s.Flags...),
		&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON envelope"})
	args := make([]map[string]any, 0, len(s.Args))
	argChoices := map[string][]string{}
	argsUsage := ""
	for _, a := range s.Args {
		m := map[string]any{"name": a.Name, "required": a.Required, "passthrough": a.Passthrough}
		if len(a.Choices) > 0 {
			m["choices"] = append([]string(nil), a.Choices...)
			argChoices[a.Name] = append([]string(nil), a.Choices...)
		}
		args = append(args, m)
		argsUsage += " " + argUsage(a)
	}
	meta := map[string]any{
		legacy.MetaReadOnly:    s.ReadOnly,
		legacy.MetaDestructive: s.Destructive,
		legacy.MetaIdempotent:  s.Idempotent,
		legacy.MetaNetwork:     s.Network,
		MetaArgs:               args,
		metaSpec:               &spec,
	}
	if len(argChoices) > 0 {
		meta[legacy.MetaArgChoices] = argChoices
	}
	if len(s.Args) == 0 {
		meta[legacy.MetaNoArgs] = true // the spec declares every positional
	}
	if s.OpenWorld {
		meta[legacy.MetaOpenWorld] = true
	}
	if s.RunsCode {
		meta[legacy.MetaRunsCode] = true
	}
	if len(s.Effects) > 0 {
		meta[legacy.MetaEffects] = append([]tool.Effect(nil), s.Effects...)
	}
	if rules := append(append([]Rule(nil), s.Rules...), s.Enforces...); len(rules) > 0 {
		cs := make([]tool.Constraint, len(rules))
		for i, r := range rules {
			cs[i] = r.constraint()
		}
		meta[legacy.MetaConstraints] = cs
	}
	argDescriptions := map[string]string{}
	var leadingDash []string
	for _, a := range s.Args {
		if a.Usage != "" {
			argDescriptions[a.Name] = a.Usage
		}
		if a.LeadingDash {
			leadingDash = append(leadingDash, a.Name)
		}
	}
	if len(leadingDash) > 0 {
		meta[legacy.MetaArgLeadingDash] = leadingDash
	}
	if len(argDescriptions) > 0 {
		meta[legacy.MetaArgDescriptions] = argDescriptions
	}
	if len(s.Paths) > 0 {
		paths := make(map[string]string, len(s.Paths))
		for k, v := range s.Paths {
			paths[k] = v
		}
		meta[legacy.MetaPaths] = paths
	}
	app := &cli.App{
		Name:                      s.Name,
		HelpName:                  "delivery " + s.Name,
		Usage:                     s.Usage,
		ArgsUsage:                 trimSpace(argsUsage),
		Flags:                     flags,
		Metadata:                  meta,
		HideHelpCommand:           true,
		HideVersion:               true,
		DisableSliceFlagSeparator: true,
		OnUsageError:              onUsageError,
		Action:                    action(&spec),
	}
	return app
}

func argUsage(a Arg) string {
	switch {
	case a.Passthrough:
		return "[-- " + upper(a.Name) + "...]"
	case a.Required:
		return "<" + upper(a.Name) + ">"
	default:
		return "[<" + upper(a.Name) + ">]"
	}
}

func specOf(app *cli.App) *Spec {
	s, _ := app.Metadata[metaSpec].(*Spec)
	return s
}
