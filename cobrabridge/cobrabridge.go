// Package cobrabridge is the one line a cobra program (github.com/spf13/cobra) adds to
// serve its commands as governed tools, as cmdbridge.Command is for a urfave/cli v2
// program:
//
//	root.AddCommand(cobrabridge.Command(nil))
//
// `prog bridge tools|call|batch|serve|mcp|status|evidence|token` then serves every
// command of the tree that runs (but the bridge itself, help, completion and hidden or
// deprecated commands) through the cmdbridge host, which reads the program's shape from
// `prog bridge __manifest` and runs the program itself for every call (the subprocess
// lane): persistent flags are written before the subcommand they belong to, positionals
// after "--", and the program's own hooks, output and exit status are what the caller
// gets. The program links cobra, the standard library and this module's light
// packages, never the serving stack.
//
// Each pflag flag becomes a property of its command's input schema: booleans, strings,
// integers, floats, durations and their lists as themselves; IPs, masks and byte flags
// as strings the program parses; maps (stringToString…) and the lists pflag has but the
// schema does not (bools, durations, IPs) as lists of strings, one "key=value" or one
// value per item; a count as a switch (given, it counts once) and a flag with an
// optional value as a switch giving that value. The last kinds carry a warning that
// `tools list` and `status` show. A command's positionals come from its Use line
// ("add <title> [body]"), else from its Args validator when it states an exact count
// (cobra.NoArgs, ExactArgs, RangeArgs, MinimumNArgs…); otherwise it gets a generic "args" list with a warning
// unless Config.NoArgs says it takes none.
//
// Invariants:
//   - Describing the tree runs nothing of the program's: no command's Run, and no
//     PersistentPreRun of a parent (the bridge has its own, which does nothing).
//   - The manifest holds no secret: a flag's default is its declared default
//     (DefValue), never a value read from the environment.
package cobrabridge

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/cmdbridge/cmdbridge/internal/adoptconfig"
	"github.com/cmdbridge/cmdbridge/internal/adopted"
)

// Config says how the program's commands become tools: cmdbridge.Config, the same
// fields for every framework. nil serves every runnable command with the plain output
// convention.
type Config = adoptconfig.Config

// Effects is what one command declares it does (Config.Effects).
type Effects = adoptconfig.Effects

// The output conventions of Config.Output.
const (
	OutputPlain    = adoptconfig.OutputPlain
	OutputEnvelope = adoptconfig.OutputEnvelope
)

// Command returns the bridge subcommand to add to your root command. cfg may be nil.
func Command(cfg *Config) *cobra.Command {
	var c Config
	if cfg != nil {
		c = *cfg
	}
	name := adopted.BridgeName(c.Name)
	return &cobra.Command{
		Use:                name,
		Short:              adopted.BridgeHelp(name),
		DisableFlagParsing: true,
		SilenceUsage:       true,
		SilenceErrors:      true,
		// The program's own PersistentPreRun (a parent's: a config loaded, a database
		// opened) is not the bridge's: every call the host serves runs the program,
		// hooks included.
		PersistentPreRunE: func(*cobra.Command, []string) error { return nil },
		RunE: func(cmd *cobra.Command, args []string) error {
			root := cmd.Root()
			if len(args) == 1 && args[0] == adopted.ManifestWord {
				return manifest(cmd, root, c)
			}
			title := root.Name() + " " + name
			code, err := adopted.Exec(title, name, args)
			if err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), err)
				os.Exit(1)
			}
			if code != 0 {
				os.Exit(code)
			}
			return nil
		},
	}
}
