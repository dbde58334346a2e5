package host

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/adopted"
	"github.com/cmdbridge/cmdbridge/internal/appspec"
	"github.com/cmdbridge/cmdbridge/internal/apptree"
	bridgecli "github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Framework is what a command-line framework gives the serving stack for one program
// (docs/architecture.md, "Frameworks"): its command tree described as data, and a run
// of the program's own tree in the process. cobrabridge/cobrahost and v3bridge/v3host
// implement it for cobra and urfave/cli v3; urfave/cli v2 programs are served from
// their *cli.App ([Command], [Main]), which apptree describes exactly.
type Framework interface {
	// Describe is the program's tree, the bridge subcommand left out.
	Describe() *appspec.Tree
	// Run runs the program's own tree on args (the os.Args of an in-process call:
	// the program's name first), a fresh tree each time; its error is what the
	// program's Execute or Run returned.
	Run(ctx context.Context, args []string) error
}

// V2 is urfave/cli v2's [Framework] for the app newApp builds (a fresh one each call):
// apptree describes it exactly, flags, usage and defaults; what it does not describe
// is the app's Metadata, where a v2 program may declare effects, positionals' choices
// and leading dashes, so [Command] and [Main] serve a v2 app from the app itself, and V2
// is for a program that declares them in its Config.
func V2(newApp func() *cli.App) Framework { return v2{newApp} }

type v2 struct{ newApp func() *cli.App }

func (f v2) Describe() *appspec.Tree { return apptree.Describe(f.newApp(), nil) }

func (f v2) Run(ctx context.Context, args []string) error {
	return f.newApp().RunContext(ctx, args)
}

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
		if h, err = c.treeHost(fw, desc, true, exe); err == nil {
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
	if len(os.Args) > 1 && os.Args[1] == adopted.HostWord {
		return Adopted(os.Args[2:], os.Stdout, os.Stderr)
	}
	exe, err := os.Executable()
	if err == nil {
		var h bridgecli.Host
		if h, err = c.treeHost(fw, desc, false, exe); err == nil {
			h.Name = filepath.Base(os.Args[0])
			return bridgecli.Main(os.Args, os.Stdout, os.Stderr, h)
		}
	}
	fmt.Fprintln(os.Stderr, "cmdbridge:", err)
	return bridgecli.ExitFailed
}

// treeHost is the command line's Host of fw's tree, desc (see [Config.host]).
func (c Config) treeHost(fw Framework, desc *appspec.Tree, live bool, exe string) (bridgecli.Host, error) {
	stub := func(path []string) cli.ActionFunc {
		return func(*cli.Context) error {
			return cli.Exit(fmt.Sprintf("%s: this command only describes the program's own; its runs go to the program's tree", strings.Join(path, " ")), 70)
		}
	}
	newApp := func() *cli.App { return apptree.Build(desc, stub) }
	c.runTree, c.packages = fw.Run, packagesOf(desc)
	c.described = &described{warnings: unknownFlags(desc)}
	return c.host(newApp, newApp(), live, exe)
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
	walk(nil, desc.Commands)
	return out
}
