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
)

// Tree serves, from inside the program, the command tree of a program written with
// another framework, as [Command] serves an urfave/cli app: desc describes the tree
// (its bridge left out) and run runs the program's own tree on the os.Args of an
// in-process call, a fresh tree each time (cobrabridge/cobrahost is the cobra line).
// Every other call runs the program itself (the subprocess lane). name is the bridge
// subcommand's name and args its command line. It returns the exit status.
func Tree(desc *appspec.Tree, run func(ctx context.Context, args []string) error, cfg *Config, name string, args []string, stdout, stderr io.Writer) int {
	c := config(cfg)
	c.Name = name
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "%s %s: %v\n", desc.Name, name, err)
		return bridgecli.ExitFailed
	}
	stub := func(path []string) cli.ActionFunc {
		return func(*cli.Context) error {
			return cli.Exit(fmt.Sprintf("%s: this command only describes the program's own; its runs go to the program's tree", strings.Join(path, " ")), 70)
		}
	}
	newApp := func() *cli.App { return apptree.Build(desc, stub) }
	c.runTree, c.packages = run, packagesOf(desc)
	c.described = &described{warnings: unknownFlags(desc)}
	h, err := c.host(newApp, newApp(), true, exe)
	if err != nil {
		fmt.Fprintf(stderr, "%s %s: %v\n", desc.Name, name, err)
		return bridgecli.ExitFailed
	}
	h.Name = desc.Name + " " + name
	h.Self = []string{name}
	return bridgecli.Main(append([]string{h.Name}, args...), stdout, stderr, h)
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
