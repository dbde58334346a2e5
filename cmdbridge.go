package cmdbridge

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/adoptconfig"
	"github.com/cmdbridge/cmdbridge/internal/adopted"
	"github.com/cmdbridge/cmdbridge/internal/apptree"
	"github.com/cmdbridge/cmdbridge/tool/effect"
)

// Config says how a program's commands become tools (its fields: package
// internal/adoptconfig, shared with the lines of the other frameworks, such as
// cobrabridge.Config). Every field is optional: nil (or the zero Config) serves every
// leaf of the app's command tree with the plain output convention, on the subprocess
// lane.
type Config = adoptconfig.Config

// Effects is what one command declares it does ([Config.Effects]); the zero Effects
// declares a command that writes but destroys nothing.
type Effects = effect.Declared

// The output conventions of [Config.Output]: plain text (whatever the command prints,
// with its exit status), or the corpus's JSON envelope.
const (
	OutputPlain    = adoptconfig.OutputPlain
	OutputEnvelope = adoptconfig.OutputEnvelope
)

// Command returns the bridge subcommand to append to your app's Commands:
//
//	app.Commands = append(app.Commands, cmdbridge.Command(nil))
//
// `yourprogram bridge tools|call|batch|serve|mcp|status|evidence|token` then serves
// every other leaf command of the app as a tool, through the cmdbridge host program
// (cmd/cmdbridge, found through $CMDBRIDGE_HOST or on $PATH), which reads your app's
// shape from your program (`yourprogram bridge __manifest`) and runs your program
// itself for every call: the subprocess lane. Your program links nothing of the
// serving stack, so its ordinary runs cost what they did. cfg may be nil.
//
// To run vouched-for commands in-process, or native implementations of some of them,
// use host.Command instead, which links the serving stack into your program. A program
// that links package host anyway (a build with the developer commands: docs/adopt.md,
// the cmdbridge_dev tag) serves this line in-process too, as host.Command(&host.Config{
// Config: *cfg}) would.
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
		Action: func(ctx *cli.Context) error {
			args := ctx.Args().Slice()
			if len(args) == 1 && args[0] == adopted.ManifestWord {
				return manifest(ctx.App, name, c)
			}
			if adopted.InProcess != nil { // the program links package host
				return adopted.InProcess(ctx, name, c)
			}
			return serve(ctx.App.Name+" "+name, name, args)
		},
	}
}

// manifest prints the program's manifest (package adopted) on stdout.
func manifest(app *cli.App, bridge string, c Config) error {
	m, err := adopted.NewManifest(bridge, c, apptree.Describe(app, func(cmd *cli.Command) bool { return cmd.Name == bridge }))
	if err == nil {
		err = adopted.Print(os.Stdout, m)
	}
	if err != nil {
		return cli.Exit(fmt.Sprintf("%s %s: %v", app.Name, bridge, err), 1)
	}
	return nil
}

// serve hands the command line to the cmdbridge host (adopted.Exec), with the
// environment the program started with.
func serve(title, bridge string, args []string) error {
	code, err := adopted.Exec(title, bridge, args)
	if err != nil {
		return cli.Exit(err.Error(), 1)
	}
	if code != 0 {
		return cli.Exit("", code)
	}
	return nil
}
