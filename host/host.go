package host

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge"
	"github.com/cmdbridge/cmdbridge/internal/adopted"
	"github.com/cmdbridge/cmdbridge/internal/hostconfig"
	bridgecli "github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Config is what the in-process line ([Command], [Main]) is configured with: the
// adopter's [cmdbridge.Config], which says how the commands become tools, and what only a
// program that links the serving stack can use — its own Go run in-process, native
// implementations, registries of legacy commands (its fields: package
// internal/hostconfig, which surface/cli.Host embeds, so the command line reads your
// settings themselves). Every field is optional.
type Config = hostconfig.Config

// serving is a Config with what this package learned of the program it serves, beyond
// what the adopter configured.
type serving struct {
	Config
	// described is set when the app was read from outside the program ([Wrap] from its
	// help, [Adopted] from its manifest): only the program can run it.
	described *described
	// runTree runs the tree of a program of another framework on an in-process call's
	// os.Args (Tree): newApp only describes it.
	runTree func(ctx context.Context, args []string) error
	// packages are the leaves' packages of a described tree (Tree), and meta what its
	// description declares of each (appspec.Tree.CommandMeta).
	packages map[string]string
	meta     map[string]map[string]any
	// effectsFile is the absolute path of `wrap --effects FILE`: re-launches of the
	// command line (mcp enable's host entry, the sandbox runner) pass it on.
	effectsFile string
}

// Effects is what one command declares it does ([cmdbridge.Effects]).
type Effects = cmdbridge.Effects

// programWord is the hidden first argument with which a standalone [Main] runs the app
// itself: the subprocess lane's argv when no program binary is installed.
const programWord = "__program"

// Command is the in-process line: the bridge subcommand to append to your app's
// Commands, serving from inside your program:
//
//	app.Commands = append(app.Commands, host.Command(&host.Config{New: newApp, InProcess: []string{"status"}}))
//
// `yourprogram bridge tools|call|batch|serve|mcp|status|evidence|token` then serves
// every other leaf command of the app as a tool; the tools you vouch for run
// in-process (with Config.New), native implementations (Config.Native) natively, and
// the others on the subprocess lane, which runs your program itself with the leaf's
// path. It links the serving stack into your program, which costs every ordinary run
// (docs/adopt.md, "What the line costs"); cmdbridge.Command serves the same tools from
// the cmdbridge host and costs nothing. cfg may be nil. The developer commands (parity,
// scaffold) are not linked into your program unless it imports surface/cli/devcli, as
// docs/adopt.md does under a build tag.
func Command(cfg *Config) *cli.Command {
	c := config(cfg)
	// The light line's subcommand (its name, usage and manifest), served from here.
	light := cmdbridge.Command(&c.Config.Config)
	name, manifest := light.Name, light.Action
	light.Action = func(ctx *cli.Context) error {
		if ctx.Args().Len() == 1 && ctx.Args().First() == adopted.ManifestWord {
			return manifest(ctx) // the same manifest as the light line's
		}
		app := ctx.App
		exe, err := os.Executable()
		if err != nil {
			return cli.Exit(fmt.Sprintf("%s %s: %v", app.Name, name, err), 1)
		}
		// The app through the framework boundary, as cobra and v3 trees are served: a
		// fresh one per run from New, else the running app, described but never run.
		var host bridgecli.Host
		if c.New != nil {
			fw := v2{newApp: c.New, bridge: name}
			host, err = c.treeHost(fw.Describe(), restoring(fw), true, exe)
		} else {
			host, err = c.treeHost(v2{newApp: func() *cli.App { return app }, bridge: name}.Describe(), nil, true, exe)
		}
		if err != nil {
			return cli.Exit(fmt.Sprintf("%s %s: %v", app.Name, name, err), 1)
		}
		host.Name = app.Name + " " + name
		host.Self = []string{name}
		args := append([]string{host.Name}, ctx.Args().Slice()...)
		if code := bridgecli.Main(args, app.Writer, errWriter(app), host); code != 0 {
			return cli.Exit("", code)
		}
		return nil
	}
	return light
}

// Main is the standalone entry point for a program you can import but not change: it
// serves the command tree of the app newApp builds (a fresh app per call), plus
// cfg.Commands, and returns the exit status.
//
//	func main() { os.Exit(host.Main(app.New, nil)) }
func Main(newApp func() *cli.App, cfg *Config) int {
	if newApp != nil {
		return MainTree(V2(newApp), cfg)
	}
	c := config(cfg)
	return standalone(c.Hosted, func(exe string) (bridgecli.Host, error) { return c.host(nil, nil, false, exe) })
}

// standalone serves a standalone main's command line (os.Args) with the Host build
// makes for this executable, or, as `cmdbridge __adopted …`, a program adopted with
// the light line, whose command line gets hosted (Config.Hosted). It returns the exit
// status.
func standalone(hosted []*cli.Command, build func(exe string) (bridgecli.Host, error)) int {
	if len(os.Args) > 1 && os.Args[1] == adopted.HostWord {
		return serveAdopted(os.Args[2:], os.Stdout, os.Stderr, hosted)
	}
	exe, err := os.Executable()
	if err == nil {
		var h bridgecli.Host
		if h, err = build(exe); err == nil {
			h.Name = filepath.Base(os.Args[0])
			return bridgecli.Main(os.Args, os.Stdout, os.Stderr, h)
		}
	}
	fmt.Fprintln(os.Stderr, "cmdbridge:", err)
	return bridgecli.ExitFailed
}

// config is what serves cfg (nil: the zero Config).
func config(cfg *Config) serving {
	if cfg == nil {
		return serving{}
	}
	return serving{Config: *cfg}
}

// host builds the command line's Host: the tree of app (when there is one) and
// c.Commands as one registry, the tier table applied, and the subprocess lane. live says
// newApp returns the running app (the bridge subcommand), which can be described but
// never run again in-process.
func (c serving) host(newApp func() *cli.App, app *cli.App, live bool, exe string) (bridgecli.Host, error) {
	reg := legacy.NewRegistry()
	if c.Commands != nil {
		for _, cmd := range c.Commands.All() {
			if err := reg.Add(cmd); err != nil {
				return bridgecli.Host{}, err
			}
		}
	}
	h := bridgecli.Host{
		Config:          c.Config,
		Environ:         adopted.StartEnviron(), // the program's, before main changed it
		SuperviseParity: true,                   // a program's main: os.Args is the command line
	}
	h.Commands = reg // c.Commands and the app's tree, as one registry
	if app != nil {
		effects, err := c.effects()
		if err != nil {
			return bridgecli.Host{}, err
		}
		opts := legacy.TreeOptions{Output: c.Output, Outputs: c.Outputs, Live: live && c.runTree == nil,
			Prepare: c.prepare(), LeadingDash: c.LeadingDash, Effects: effects, NoArgs: c.NoArgs, Run: c.runTree,
			Packages: c.packages, Meta: c.meta}
		if live {
			bridge := c.Name
			if bridge == "" {
				bridge = "bridge"
			}
			opts.Skip = func(cmd *cli.Command) bool { return cmd.Name == bridge }
		}
		if c.described != nil {
			opts.Skip, opts.Warnings, opts.LiveReason = nil, c.described.warnings, c.described.reason
		}
		if err := reg.AddApp(newApp, opts); err != nil {
			return bridgecli.Host{}, err
		}
		if h.Version == "" {
			h.Version = app.Version
		}
		h.Program = app.Name
		switch {
		case h.Binary != "":
		case live:
			h.Binary = exe
		case !installed(app.Name, exe):
			h.Binary, h.Prefix = exe, []string{programWord}
		}
	}
	if app == nil && (len(c.Effects) > 0 || len(c.EffectsYAML) > 0) {
		return bridgecli.Host{}, fmt.Errorf("effects: Config.Effects declares the leaves of an app's command tree, and there is no app")
	}
	if h.Program == "" && c.Binary != "" {
		h.Program = filepath.Base(c.Binary)
	}
	var table legacy.Table
	if len(c.Tiers) > 0 {
		var err error
		if table, err = legacy.ParseTiers(c.Tiers); err != nil {
			return bridgecli.Host{}, err
		}
	}
	// Your own verdicts come after the table's command verdicts and before its package
	// verdicts, which judge a whole package by its worst finding.
	verdicts := legacy.Tiers{}
	for _, cmd := range reg.All() {
		for _, pattern := range c.InProcess {
			if ok, err := doublestar.Match(pattern, cmd.Name); err != nil {
				return bridgecli.Host{}, fmt.Errorf("in-process pattern %q: %w", pattern, err)
			} else if ok && cmd.Tier == "" {
				verdicts[cmd.Name] = legacy.Verdict{Tier: legacy.TierInProcess}
			}
		}
	}
	maps.Copy(verdicts, table.Commands)
	table.Commands = verdicts
	if err := reg.SetTiers(table); err != nil {
		return bridgecli.Host{}, err
	}
	return h, nil
}

// effects is Effects and EffectsYAML in one table.
func (c serving) effects() (map[string]Effects, error) {
	parsed, err := legacy.ParseEffects(c.EffectsYAML)
	if err != nil {
		return nil, err
	}
	out := maps.Clone(c.Effects)
	if out == nil {
		out = map[string]Effects{}
	}
	for k, e := range parsed {
		if _, ok := out[k]; ok {
			return nil, fmt.Errorf("effects: %q is declared in both Effects and EffectsYAML", k)
		}
		out[k] = e
	}
	return out, nil
}

// installed reports whether the program name is an executable next to exe or on $PATH.
func installed(name, exe string) bool {
	if st, err := os.Stat(filepath.Join(filepath.Dir(exe), name)); err == nil && !st.IsDir() {
		return true
	}
	_, err := exec.LookPath(name)
	return err == nil
}

// prepare is c.Prepare, or the Prepare that c.OnError amounts to (nil: neither is set).
func (c serving) prepare() func(args []string) func(error) int {
	//lint:ignore SA1019 the deprecated OnError is still honoured: here, as Prepare's finish.
	onError := c.OnError
	if c.Prepare != nil || onError == nil {
		return c.Prepare
	}
	finish := func(err error) int {
		if err == nil {
			return 0
		}
		onError(err)
		return bridgecli.ExitFailed
	}
	return func([]string) func(error) int { return finish }
}

func errWriter(app *cli.App) io.Writer {
	if app.ErrWriter != nil {
		return app.ErrWriter
	}
	return os.Stderr
}
