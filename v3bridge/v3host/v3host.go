// Package v3host is urfave/cli v3's in-process line: the bridge subcommand that serves a
// v3 program from inside it, as host.Command serves a v2 app, so that the commands you
// vouch for (host.Config.InProcess, Tiers) run in the program's process (the adapter
// lane) and native implementations (host.Config.Native) can replace them one at a time:
//
//	cmd := newRoot()
//	cmd.Commands = append(cmd.Commands, v3host.Command(newRoot, &host.Config{InProcess: []string{"notes:*"}}))
//
// newRoot is your tree's constructor: every in-process call runs a tree of its own, so
// no flag value or writer one call set reaches the next. The process must outlive a
// call: an in-process run's exit codes (cli.Exit, v3's ExitCoder errors) come back as
// errors instead of reaching v3's OsExiter (the tree's ExitErrHandler is replaced for
// the run, and one of the program's own is not called), and the run ends as v3 would
// end it: the error's message on stderr, its code the exit status. Any other error goes
// to host.Config.Prepare's finish (default: printed on stderr, exit status 1), which
// says what your main does with it.
package v3host

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/cmdbridge/cmdbridge/host"
	"github.com/cmdbridge/cmdbridge/internal/adopted"
	"github.com/cmdbridge/cmdbridge/internal/appspec"
	"github.com/cmdbridge/cmdbridge/v3bridge"
)

// Command returns the bridge subcommand to append to the Commands of the root newRoot
// builds. cfg may be nil.
func Command(newRoot func() *cli.Command, cfg *host.Config) *cli.Command {
	var c host.Config
	if cfg != nil {
		c = *cfg
	}
	c.Prepare = exitCoders(c.Prepare)
	bridge := v3bridge.Command(&c.Config) // its name, usage and manifest
	manifest := bridge.Action
	bridge.Action = func(ctx context.Context, cmd *cli.Command) error {
		args := cmd.Args().Slice()
		if len(args) == 1 && args[0] == adopted.ManifestWord {
			return manifest(ctx, cmd)
		}
		root := cmd.Root()
		fw := framework{newRoot: newRoot, root: root, bridge: cmd}
		out, errOut := root.Writer, root.ErrWriter
		if out == nil {
			out = os.Stdout
		}
		if errOut == nil {
			errOut = os.Stderr
		}
		if code := host.Tree(fw, &c, cmd.Name, args, out, errOut); code != 0 {
			return cli.Exit("", code)
		}
		return nil
	}
	return bridge
}

// Main is urfave/cli v3's standalone entry point, for a program you can import but not
// change (host.Main is v2's): a binary of its own that serves the tree newRoot builds,
// and returns the exit status. cfg may be nil.
//
//	func main() { os.Exit(v3host.Main(kit.NewRoot, nil)) }
func Main(newRoot func() *cli.Command, cfg *host.Config) int {
	var c host.Config
	if cfg != nil {
		c = *cfg
	}
	c.Prepare = exitCoders(c.Prepare)
	return host.MainTree(framework{newRoot: newRoot, root: newRoot()}, &c)
}

// framework is v3's host.Framework for one program: root is the tree described (bridge,
// when set, is left out), newRoot builds a fresh one for each in-process run, whose exit
// codes come back as errors.
type framework struct {
	newRoot      func() *cli.Command
	root, bridge *cli.Command
}

func (f framework) Describe() *appspec.Tree { return v3bridge.Describe(f.root, f.bridge) }

func (f framework) Run(ctx context.Context, args []string) error {
	root := f.newRoot()
	root.ExitErrHandler = func(context.Context, *cli.Command, error) {}
	return root.Run(ctx, args)
}

// Globals are v3's package-level variables a program's hooks or actions may set: its
// exit hook and error writer, the help and version printers, the built-in help and
// version flags and the flag printers. (Its help templates are left out: a build with
// the urfave_cli_no_template tag makes them constants.)
func (framework) Globals() []host.Global {
	return []host.Global{
		host.Var("cli.OsExiter", &cli.OsExiter),
		host.Var("cli.ErrWriter", &cli.ErrWriter),
		host.Var("cli.HelpPrinter", &cli.HelpPrinter),
		host.Var("cli.HelpPrinterCustom", &cli.HelpPrinterCustom),
		host.Var("cli.VersionPrinter", &cli.VersionPrinter),
		host.Var("cli.ShowRootCommandHelp", &cli.ShowRootCommandHelp),
		host.Var("cli.ShowAppHelp", &cli.ShowAppHelp),
		host.Var("cli.ShowCommandHelp", &cli.ShowCommandHelp),
		host.Var("cli.ShowSubcommandHelp", &cli.ShowSubcommandHelp),
		host.Var("cli.HelpFlag", &cli.HelpFlag),
		host.Var("cli.VersionFlag", &cli.VersionFlag),
		host.Var("cli.FlagStringer", &cli.FlagStringer),
		host.Var("cli.FlagNamePrefixer", &cli.FlagNamePrefixer),
		host.Var("cli.FlagEnvHinter", &cli.FlagEnvHinter),
		host.Var("cli.FlagFileHinter", &cli.FlagFileHinter),
		host.Var("cli.DefaultInverseBoolPrefix", &cli.DefaultInverseBoolPrefix),
	}
}

// exitCoders wraps prepare's finish: an ExitCoder error ends the run as v3's
// HandleExitCoder would have (its message on stderr, its code), every other error goes
// to finish (nil prepare: printed on stderr, exit 1).
func exitCoders(prepare func(args []string) func(error) int) func(args []string) func(error) int {
	return func(args []string) func(error) int {
		var finish func(error) int
		if prepare != nil {
			finish = prepare(args)
		}
		return func(err error) int {
			var ec cli.ExitCoder
			if errors.As(err, &ec) {
				if msg := err.Error(); msg != "" {
					fmt.Fprintln(os.Stderr, msg)
				}
				return ec.ExitCode()
			}
			if finish != nil {
				return finish(err)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			return 0
		}
	}
}
