// Package v3bridge is the one line an urfave/cli v3 program (github.com/urfave/cli/v3)
// adds to serve its commands as governed tools, as cmdbridge.Command is for a v2
// program:
//
//	cmd.Commands = append(cmd.Commands, v3bridge.Command(nil))
//
// `prog bridge tools|call|batch|serve|mcp|status|evidence|token` then serves every leaf
// of the command tree (but the bridge itself, help and hidden commands) through the
// cmdbridge host, which reads the program's shape from `prog bridge __manifest` and runs
// the program itself for every call (the subprocess lane). A flag becomes a property by
// the type of its value: booleans, strings, integers, floats, durations, timestamps and
// their lists as themselves; a string map as a list of "key=value" items; a flag of a
// type of the program's own as text it parses, with a warning. A command's positionals
// come from its ArgsUsage, or from its Arguments' usage when it declares them. The
// program links urfave/cli v3, the standard library and this module's light packages,
// never the serving stack.
//
// Invariants:
//   - Describing the tree runs nothing of the program's: no Action, no Before.
//   - The manifest holds no secret: a flag's default is its declared Value, never one
//     read from its sources (environment, files).
package v3bridge

import (
	"context"
	"fmt"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/cmdbridge/cmdbridge/internal/adoptconfig"
	"github.com/cmdbridge/cmdbridge/internal/adopted"
)

// Config says how the program's commands become tools: cmdbridge.Config, the same
// fields for every framework.
type Config = adoptconfig.Config

// Effects is what one command declares it does (Config.Effects).
type Effects = adoptconfig.Effects

// The output conventions of Config.Output.
const (
	OutputPlain    = adoptconfig.OutputPlain
	OutputEnvelope = adoptconfig.OutputEnvelope
)

// Command returns the bridge subcommand to append to your root command's Commands.
// cfg may be nil.
func Command(cfg *Config) *cli.Command {
	var c Config
	if cfg != nil {
		c = *cfg
	}
	name := adopted.BridgeName(c.Name)
	return &cli.Command{
		Name:            name,
		Usage:           adopted.BridgeHelp(name),
		SkipFlagParsing: true,
		HideHelp:        true,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			root := cmd.Root()
			args := cmd.Args().Slice()
			if len(args) == 1 && args[0] == adopted.ManifestWord {
				return manifest(cmd, root, c)
			}
			code, err := adopted.Exec(root.Name+" "+name, name, args)
			if err != nil {
				return cli.Exit(err.Error(), 1)
			}
			if code != 0 {
				return cli.Exit("", code)
			}
			return nil
		},
	}
}

// manifest prints the program's manifest on the root's writer.
func manifest(bridge, root *cli.Command, c Config) error {
	m, err := adopted.NewManifest(bridge.Name, c, Describe(root, bridge))
	if err == nil {
		err = adopted.Print(writer(root), m)
	}
	if err != nil {
		return cli.Exit(fmt.Sprintf("%s %s: %v", root.Name, bridge.Name, err), 1)
	}
	return nil
}

func writer(root *cli.Command) interface{ Write([]byte) (int, error) } {
	if root.Writer != nil {
		return root.Writer
	}
	return os.Stdout
}
