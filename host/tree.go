package host

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/appspec"
	"github.com/cmdbridge/cmdbridge/internal/apptree"
	bridgecli "github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Framework is what a command-line framework gives the serving stack for one program
// (docs/architecture.md, "Frameworks"): its command tree described as data, a run of
// the program's own tree in the process, and the framework's package-level variables
// such a run may change. urfave/cli v2 ([V2]; [Command] and [Main] serve a v2 app
// through it), cobra (cobrabridge/cobrahost) and urfave/cli v3 (v3bridge/v3host)
// implement it.
type Framework interface {
	// Describe is the program's tree, the bridge subcommand left out.
	Describe() *appspec.Tree
	// Run runs the program's own tree on args (the os.Args of an in-process call:
	// the program's name first), a fresh tree each time; its error is what the
	// program's Execute or Run returned.
	Run(ctx context.Context, args []string) error
	// Globals are the framework's package-level variables a run may change (an exit
	// hook, help printers, parsing switches a program's hook sets): the in-process lane
	// saves each before a run and puts it back after, so no run sees what another left.
	// What every lane's costume already restores (os.Args, the standard streams, the
	// working directory, the environment, urfave/cli v2's globals) need not be listed.
	Globals() []Global
}

// Global is one package-level variable of a framework: Save takes its value and
// returns what puts that value back.
type Global struct {
	Name string
	Save func() (restore func())
}

// Var is the [Global] of the variable p points to, named name ("cli.OsExiter").
func Var[T any](name string, p *T) Global {
	return Global{Name: name, Save: func() func() {
		v := *p
		return func() { *p = v }
	}}
}

// V2 is urfave/cli v2's [Framework] for the app newApp builds (a fresh one each call):
// apptree describes it exactly — flags, usage, defaults, the package of each action and
// the toolkit's keys of the app's Metadata (effects, positionals' choices and
// descriptions, constraints).
func V2(newApp func() *cli.App) Framework { return v2{newApp: newApp} }

// v2 is urfave/cli v2's Framework. bridge is the bridge subcommand left out of the
// description (the in-process line's).
type v2 struct {
	newApp func() *cli.App
	bridge string
}

func (f v2) Describe() *appspec.Tree {
	var skip func(*cli.Command) bool
	if f.bridge != "" {
		skip = func(c *cli.Command) bool { return c.Name == f.bridge }
	}
	return apptree.Describe(f.newApp(), skip)
}

func (f v2) Run(ctx context.Context, args []string) error { return f.newApp().RunContext(ctx, args) }

// Globals of urfave/cli v2 are none beyond what the adapter's costume restores around
// every in-process run (OsExiter, ErrWriter, the help and version printers).
func (v2) Globals() []Global { return nil }

// Tree serves, from inside the program, the command tree of a program written with
// another framework, as [Command] serves an urfave/cli app: every call to a command
// vouched for runs fw's tree in the process (the adapter lane), every other one runs
// the program itself (the subprocess lane). name is the bridge subcommand's name and
// args its command line. It returns the exit status.
func Tree(fw Framework, cfg *Config, name string, args []string, stdout, stderr io.Writer) int {
	c := config(cfg)
	c.Name = name
	desc := fw.Describe()
	exe, err := os.Executable()
	if err == nil {
		var h bridgecli.Host
		if h, err = c.treeHost(desc, restoring(fw), true, exe); err == nil {
			h.Name = desc.Name + " " + name
			h.Self = []string{name}
			return bridgecli.Main(append([]string{h.Name}, args...), stdout, stderr, h)
		}
	}
	fmt.Fprintf(stderr, "%s %s: %v\n", desc.Name, name, err)
	return bridgecli.ExitFailed
}

// MainTree is [Main] for a program of another framework (cobrahost.Main,
// v3host.Main): a binary of its own that serves fw's tree, its command line the
// bridge's. The subprocess lane runs the program installed under the tree's name, or,
// when there is none, this binary itself as the program.
func MainTree(fw Framework, cfg *Config) int {
	c := config(cfg)
	desc := fw.Describe()
	if len(os.Args) > 1 && os.Args[1] == programWord {
		os.Args = append([]string{desc.Name}, os.Args[2:]...)
		finish := legacy.DefaultFinish
		if prepare := c.prepare(); prepare != nil {
			if f := prepare(os.Args[1:]); f != nil {
				finish = f
			}
		}
		return finish(fw.Run(context.Background(), os.Args))
	}
	return standalone(c.Hosted, func(exe string) (bridgecli.Host, error) { return c.treeHost(desc, restoring(fw), false, exe) })
}

// treeHost is the command line's Host of the tree desc describes, which run runs in the
// process (nil: it is only described, and its leaves stay on the subprocess lane; see
// serving.host).
func (c serving) treeHost(desc *appspec.Tree, run func(ctx context.Context, args []string) error, live bool, exe string) (bridgecli.Host, error) {
	stub := func(path []string) cli.ActionFunc {
		return func(*cli.Context) error {
			return cli.Exit(fmt.Sprintf("%s: this command only describes the program's own; its runs go to the program's tree", strings.Join(path, " ")), 70)
		}
	}
	newApp := func() *cli.App { return apptree.Build(desc, stub) }
	c.runTree, c.packages, c.meta = run, packagesOf(desc), desc.CommandMeta()
	c.described = &described{warnings: unknownFlags(desc)}
	return c.host(newApp, newApp(), live, exe)
}

// restoring is fw.Run with fw's globals saved before the run and put back after it.
func restoring(fw Framework) func(ctx context.Context, args []string) error {
	return func(ctx context.Context, args []string) error {
		for _, g := range fw.Globals() {
			defer g.Save()()
		}
		return fw.Run(ctx, args)
	}
}

// packagesOf are the packages desc's commands say their run code lives in, by tool name.
func packagesOf(desc *appspec.Tree) map[string]string {
	out := map[string]string{}
	var walk func(path []string, cs []appspec.Command)
	walk = func(path []string, cs []appspec.Command) {
		for _, c := range cs {
			p := append(append([]string(nil), path...), c.Name)
			if c.Package != "" {
				out[strings.Join(p, ":")] = c.Package
			}
			walk(p, c.Subcommands)
		}
	}
	if desc.Package != "" && len(desc.Commands) == 0 {
		// A program without subcommands is one tool, named as FromApp names it.
		name := desc.HelpName
		if name == "" {
			name = desc.Name
		}
		out[name] = desc.Package
	}
	walk(nil, desc.Commands)
	return out
}
