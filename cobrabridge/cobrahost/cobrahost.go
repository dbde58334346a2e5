// Package cobrahost is cobra's in-process line: the bridge subcommand that serves a
// cobra program from inside it, as host.Command serves an urfave/cli app, so that the
// commands you vouch for (host.Config.InProcess, Tiers) run in the program's process
// (the adapter lane) and native implementations (host.Config.Native) can replace them
// one at a time:
//
//	root := newRoot()
//	root.AddCommand(cobrahost.Command(newRoot, &host.Config{InProcess: []string{"notes:*"}}))
//
// newRoot is your tree's constructor: every in-process call runs a tree of its own,
// built by it, so no flag value, hook state or output writer set by one call reaches
// the next (cobra keeps them in the tree). A program whose tree is a package variable
// has no such constructor: adopt it with cobrabridge.Command, whose calls all run the
// program itself. The line links the serving stack (package host) into your program;
// cobrabridge.Command links none of it.
package cobrahost

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/cmdbridge/cmdbridge/cobrabridge"
	"github.com/cmdbridge/cmdbridge/host"
	"github.com/cmdbridge/cmdbridge/internal/adopted"
	"github.com/cmdbridge/cmdbridge/internal/appspec"
)

// Command returns the bridge subcommand to add to the root newRoot builds. cfg may be
// nil. Without cfg.Prepare an in-process run ends as a cobra main usually does: an
// error is exit status 1, printed by cobra itself (unless the command silences it).
func Command(newRoot func() *cobra.Command, cfg *host.Config) *cobra.Command {
	var c host.Config
	if cfg != nil {
		c = *cfg
	}
	if c.Prepare == nil {
		c.Prepare = cobraMain
	}
	bridge := cobrabridge.Command(&c.Config) // its name, usage and manifest
	manifest := bridge.RunE
	bridge.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 1 && args[0] == adopted.ManifestWord {
			return manifest(cmd, args)
		}
		fw := framework{newRoot: newRoot, root: cmd.Root(), bridge: cmd}
		if code := host.Tree(fw, &c, cmd.Name(), args, cmd.OutOrStdout(), cmd.ErrOrStderr()); code != 0 {
			os.Exit(code)
		}
		return nil
	}
	return bridge
}

// Main is cobra's standalone entry point, for a program you can import but not change
// (host.Main is urfave/cli v2's): a binary of its own that serves the tree newRoot
// builds, and returns the exit status. cfg may be nil.
//
//	func main() { os.Exit(cobrahost.Main(kit.NewRoot, nil)) }
func Main(newRoot func() *cobra.Command, cfg *host.Config) int {
	var c host.Config
	if cfg != nil {
		c = *cfg
	}
	if c.Prepare == nil {
		c.Prepare = cobraMain
	}
	return host.MainTree(framework{newRoot: newRoot, root: newRoot()}, &c)
}

// framework is cobra's host.Framework for one program: root is the tree described
// (bridge, when set, is left out), newRoot builds a fresh one for each in-process run.
type framework struct {
	newRoot      func() *cobra.Command
	root, bridge *cobra.Command
}

func (f framework) Describe() *appspec.Tree { return cobrabridge.Describe(f.root, f.bridge) }

func (f framework) Run(ctx context.Context, args []string) error {
	root := f.newRoot()
	root.SetArgs(args[1:])
	return root.ExecuteContext(ctx)
}

// Globals are cobra's package-level switches a program's hooks may set (prefix
// matching, command sorting, case-insensitive names, traversed run hooks, the Windows
// mousetrap). cobra.OnInitialize's list is not among them: it is unexported, so a
// constructor that calls OnInitialize adds its function again on every in-process run;
// call it from main, outside the constructor.
func (framework) Globals() []host.Global {
	return []host.Global{
		host.Var("cobra.EnablePrefixMatching", &cobra.EnablePrefixMatching),
		host.Var("cobra.EnableCommandSorting", &cobra.EnableCommandSorting),
		host.Var("cobra.EnableCaseInsensitive", &cobra.EnableCaseInsensitive),
		host.Var("cobra.EnableTraverseRunHooks", &cobra.EnableTraverseRunHooks),
		host.Var("cobra.MousetrapHelpText", &cobra.MousetrapHelpText),
		host.Var("cobra.MousetrapDisplayDuration", &cobra.MousetrapDisplayDuration),
	}
}

// cobraMain is what `if err := root.Execute(); err != nil { os.Exit(1) }` does with
// Execute's error.
func cobraMain([]string) func(error) int {
	return func(err error) int {
		if err != nil {
			return 1
		}
		return 0
	}
}
