package legacy

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/appspec"
)

// TreeOptions say how [FromApp] turns an app's command tree into legacy.
type TreeOptions struct {
	// Program is os.Args[0] of in-process runs (default: the app's HelpName, else Name).
	Program string
	// Output is the output convention of every leaf (default OutputPlain); Outputs
	// overrides it per tool name.
	Output  string
	Outputs map[string]string
	// Skip leaves a command (and its subtree) out: the bridge command itself, say.
	Skip func(c *cli.Command) bool
	// Live, when set, says newApp returns the running app rather than a fresh one: the
	// leaves can be described but never run in-process (their tier is subprocess).
	Live bool
	// Prepare is what the program's main does around app.Run, for in-process runs (which
	// skip main): it runs before each, with os.Args[1:] of the run, and returns finish,
	// which turns the error Run returned (nil on success) into what main prints and the
	// exit status. See cmdbridge.Config.Prepare. Default: [DefaultFinish].
	Prepare func(args []string) (finish func(err error) int)
	// LeadingDash names, per tool, the positionals whose values may begin with "-":
	// what [MetaArgLeadingDash] says for an app, for a leaf, which has no Metadata of
	// its own. Every other positional refuses such a value.
	LeadingDash map[string][]string
	// Warnings are warnings per tool name that the leaves carry (Command.Warnings): what
	// describing the tree could not map (a program read from its help).
	Warnings map[string][]string
	// LiveReason replaces the finding a Live leaf records (why it never runs in-process).
	LiveReason string
	// Effects declares what leaves do, keyed by tool name or doublestar glob over the
	// names ([Effects]). A leaf's effect is, first found: the entry naming it exactly,
	// what its Metadata declares (the Meta* keys: only an app without subcommands has
	// Metadata of its own, cli.Command has none), the matching glob with the most
	// literal characters; with none, it is undeclared ([MetaUndeclared]): destructive.
	// An entry that matches no leaf is an error.
	Effects map[string]Effects
	// NoArgs names the leaves (tool names or doublestar globs over them, "*" for all)
	// that take no positionals: what [MetaNoArgs] says for an app. A leaf whose usage
	// declares none otherwise gets a generic "args" list, with a warning.
	NoArgs []string
	// Packages gives, per tool name, the import path of the package a leaf's run code
	// lives in, where newApp's actions are not the program's own (a tree a framework
	// described): a tier table's package verdict judges the leaf by it. When it is set
	// (even empty), a leaf it does not name has no package.
	Packages map[string]string
	// Meta declares more of each leaf, by tool name, as Metadata keys (the Meta*
	// keys) laid over what the leaf's app holds: what a framework's description says of
	// a command that a v2 cli.Command has no Metadata to hold (appspec.Tree.CommandMeta).
	Meta map[string]map[string]any
	// Run, when set, runs the program on args (os.Args of an in-process run, Program
	// first) in place of newApp().RunContext: for a program of another framework, whose
	// tree newApp only describes (a fresh tree per run, built by the program's own
	// constructor). Its error goes to Prepare's finish as Run's would.
	Run func(ctx context.Context, args []string) error
}

// FromApp turns the command tree of the app newApp builds into one command per leaf
// (a command without subcommands, or with an action of its own), named by its path below
// the program joined with ":" (`gizmo notes add` → notes:add; an app without
// subcommands gives one command named after the app). A leaf's flag table is its own
// flags followed by those it inherits (its parents', nearest first, then the app's):
// FlagLevel records where each inherited one is written. It runs the real tree: the
// in-process lane calls newApp().RunContext with os.Args = [Program, path..., argv...],
// so help, usage errors and output are the program's own. Hidden commands and help are
// left out.
func FromApp(newApp func() *cli.App, opts TreeOptions) ([]Command, error) {
	app := newApp()
	if app == nil {
		return nil, fmt.Errorf("command tree: the constructor returned no app")
	}
	program := opts.Program
	if program == "" {
		program = app.HelpName
	}
	if program == "" {
		program = app.Name
	}
	if program == "" {
		return nil, fmt.Errorf("command tree: the app has no name (set Name or TreeOptions.Program)")
	}
	output := opts.Output
	if output == "" {
		output = OutputPlain
	}
	effects, err := newEffectTable(opts.Effects)
	if err != nil {
		return nil, err
	}
	var errs []error
	var out []Command
	leaf := func(path []string, alts [][]string, c *cli.Command) error {
		name := strings.Join(path, ":")
		if len(path) == 0 {
			name = program
		}
		cmd := Command{
			Name:      name,
			Domain:    program,
			Program:   program,
			Path:      path,
			FlagLevel: map[string]int{},
			Output:    output,
		}
		if len(path) > 1 {
			cmd.Domain = path[0]
		}
		cmd.Aliases = aliasNames(path, alts)
		cmd.Warnings = append([]string(nil), opts.Warnings[name]...)
		if o, ok := opts.Outputs[name]; ok {
			cmd.Output = o
		}
		switch {
		case opts.Packages != nil:
			// A described tree: its actions are stand-ins, the description says.
			cmd.Package = opts.Packages[name]
		case c != nil:
			cmd.Package = funcPackage(c.Action)
		default:
			cmd.Package = funcPackage(app.Action)
		}
		described := leafApp(app, path, cmd.FlagLevel, program)
		overlay, err := effects.overlay(name, described.Metadata)
		if err != nil {
			errs = append(errs, err)
		}
		extra := maps.Clone(opts.Meta[name])
		if extra == nil {
			extra = map[string]any{}
		}
		if dash := opts.LeadingDash[name]; len(dash) > 0 {
			extra[MetaArgLeadingDash] = dash
		}
		for _, pattern := range opts.NoArgs {
			if ok, err := doublestar.Match(pattern, name); err != nil {
				return fmt.Errorf("command tree: no-args pattern %q: %w", pattern, err)
			} else if ok {
				extra[MetaNoArgs] = true
			}
		}
		// urfave/cli answers a first positional "help" or "h" with the command's help,
		// unless the command hides it (the app, for an app without subcommands). A
		// described program says so itself (its rebuilt tree hides help everywhere).
		hides := app.HideHelp || app.HideHelpCommand
		if c != nil {
			hides = c.HideHelp || c.HideHelpCommand
		}
		if _, declared := extra[MetaHelpWords]; !declared && !hides {
			extra[MetaHelpWords] = []string{"help", "h"}
		}
		if c != nil && len(c.Subcommands) > 0 {
			var subs []string
			for _, s := range c.Subcommands {
				if s != nil {
					subs = append(subs, s.Names()...)
				}
			}
			extra[MetaSubcommands] = subs
		}
		overlay = withMeta(overlay, extra)
		cmd.New = func() *cli.App {
			a := leafApp(newApp(), path, nil, program)
			// Each app gets its own copies: nothing one run does to its Metadata reaches
			// the next.
			fresh := maps.Clone(overlay)
			for k, v := range fresh {
				if l, ok := v.([]string); ok {
					fresh[k] = slices.Clone(l)
				}
			}
			a.Metadata = withMeta(a.Metadata, fresh)
			return a
		}
		if opts.Live {
			cmd.Tier = TierSubprocess
			cmd.Findings = []string{"no constructor: the program's running app cannot be run again in-process (set host.Config.New to its constructor)"}
			if opts.LiveReason != "" {
				cmd.Findings = []string{opts.LiveReason}
			}
			cmd.Main = func(context.Context) {
				fmt.Fprintf(os.Stderr, "[%s] in-process: no constructor for the program's app\n", name)
				cli.OsExiter(69)
			}
		} else {
			prepare := opts.prepare()
			run := opts.Run
			if run == nil {
				run = func(ctx context.Context, args []string) error { return newApp().RunContext(ctx, args) }
			}
			cmd.Main = func(ctx context.Context) {
				finish := prepare(os.Args[1:])
				if code := finish(run(ctx, os.Args)); code != 0 {
					cli.OsExiter(code)
				}
			}
		}
		out = append(out, cmd)
		return nil
	}
	var walk func(path []string, alts [][]string, cs []*cli.Command) error
	walk = func(path []string, alts [][]string, cs []*cli.Command) error {
		for _, c := range cs {
			if c == nil || c.Hidden || c.Name == "help" || (opts.Skip != nil && opts.Skip(c)) {
				continue
			}
			p := append(append([]string(nil), path...), c.Name)
			a := append(append([][]string(nil), alts...), c.Aliases)
			if len(c.Subcommands) == 0 || c.Action != nil {
				if err := leaf(p, a, c); err != nil {
					return err
				}
			}
			if err := walk(p, a, c.Subcommands); err != nil {
				return err
			}
		}
		return nil
	}
	if len(app.Commands) == 0 {
		err = leaf(nil, nil, nil)
	} else {
		err = walk(nil, nil, app.Commands)
	}
	if err != nil {
		return nil, err
	}
	if err := errors.Join(append(errs, effects.unused())...); err != nil {
		return nil, fmt.Errorf("command tree: %w", err)
	}
	return out, nil
}

// DefaultFinish is what a main that only runs the app does with Run's error: print it
// and a newline on stderr and exit 1.
func DefaultFinish(err error) int {
	if err == nil {
		return 0
	}
	fmt.Fprintln(os.Stderr, err)
	return 1
}

// prepare is opts.Prepare, never returning a nil finish.
func (opts TreeOptions) prepare() func(args []string) func(error) int {
	p := opts.Prepare
	return func(args []string) func(error) int {
		if p != nil {
			if finish := p(args); finish != nil {
				return finish
			}
		}
		return DefaultFinish
	}
}

// maxAliasNames bounds the names a leaf's aliases make (each level's aliases multiply).
const maxAliasNames = 64

// aliasNames spells a leaf's path with every combination of its levels' names and
// aliases, the canonical spelling left out: [notes rm] with rm's alias remove gives
// notes:remove.
func aliasNames(path []string, alts [][]string) []string {
	combos := [][]string{nil}
	for i, name := range path {
		var next [][]string
		for _, prefix := range combos {
			for _, n := range append([]string{name}, alts[i]...) {
				if n == "" || len(next) >= maxAliasNames+1 {
					continue
				}
				next = append(next, append(slices.Clip(prefix), n))
			}
		}
		combos = next
	}
	var out []string
	canonical := strings.Join(path, ":")
	for _, c := range combos {
		if n := strings.Join(c, ":"); n != canonical && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// AddApp adds the leaves of newApp's command tree ([FromApp]) to r.
func (r *Registry) AddApp(newApp func() *cli.App, opts TreeOptions) error {
	cs, err := FromApp(newApp, opts)
	if err != nil {
		return err
	}
	for _, c := range cs {
		if err := r.Add(c); err != nil {
			return err
		}
	}
	return nil
}

// leafApp describes the leaf at path of app as an app of its own: its usage and texts,
// and its flags followed by the ones it inherits, each recorded in level when it is not
// nil (flag name → index in path it is written before). An app without subcommands describes itself.
func leafApp(app *cli.App, path []string, level map[string]int, program string) *cli.App {
	out := &cli.App{
		Name:                      program,
		HelpName:                  strings.TrimSpace(program + " " + strings.Join(path, " ")),
		Usage:                     app.Usage,
		UsageText:                 app.UsageText,
		ArgsUsage:                 app.ArgsUsage,
		Description:               app.Description,
		Metadata:                  app.Metadata,
		SliceFlagSeparator:        app.SliceFlagSeparator,
		DisableSliceFlagSeparator: app.DisableSliceFlagSeparator,
		Flags:                     append([]cli.Flag(nil), app.Flags...),
	}
	if len(path) == 0 {
		return out
	}
	taken := map[string]bool{}
	// levels[i] holds the flags written before path[i]: the app's, then each group's.
	levels := [][]cli.Flag{app.Flags}
	cs := app.Commands
	var leaf *cli.Command
	for i, name := range path {
		leaf = nil
		for _, c := range cs {
			if c != nil && c.Name == name {
				leaf = c
				break
			}
		}
		if leaf == nil {
			break // the tree changed under us; describe what is left
		}
		if i < len(path)-1 {
			levels = append(levels, leaf.Flags)
			cs = leaf.Subcommands
		}
	}
	out.Flags, out.Metadata = nil, nil
	if leaf != nil {
		out.Usage, out.UsageText, out.ArgsUsage, out.Description = leaf.Usage, leaf.UsageText, leaf.ArgsUsage, leaf.Description
		if out.Usage == "" {
			out.Usage = strings.TrimSpace(strings.SplitN(leaf.Description, "\n", 2)[0])
		}
		for _, f := range leaf.Flags {
			out.Flags = append(out.Flags, f)
			for _, n := range f.Names() {
				taken[n] = true
			}
		}
	}
	for i := len(levels) - 1; i >= 0; i-- { // nearest first
		for _, f := range levels[i] {
			names := f.Names()
			if len(names) == 0 || taken[names[0]] {
				continue
			}
			for _, n := range names {
				taken[n] = true
			}
			if level != nil {
				level[names[0]] = i
			}
			out.Flags = append(out.Flags, f)
		}
	}
	return out
}

// funcPackage is the import path of the package that defines f (a function or closure
// value), "" for nil: the runtime's name of a function is its package path, a dot, and
// its name within the package ("example.com/gizmo/app.notesAdd",
// "example.com/gizmo/app.textCommand.func1").
func funcPackage(f cli.ActionFunc) string { return appspec.PackageOf(f) }
