package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/adopted"
	"github.com/cmdbridge/cmdbridge/internal/apptree"
	bridgecli "github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/tool/legacy/helptree"
)

// wrappedReason is the finding of every wrapped tool: why it never runs in-process.
const wrappedReason = "wrapped: read from the program's help, so only the program can run it (subprocess lane)"

// described is what [Wrap] or [Adopted] learned beyond the app, which describes the
// program's commands but cannot run them: why they never run in-process, and the
// warnings per tool.
type described struct {
	reason   string
	warnings map[string][]string
}

// wrapHelp is `wrap`'s help: the subcommand skips urfave/cli's flag parsing, so it
// answers -h itself.
const wrapHelp = `NAME:
   %[1]s - serve an installed urfave/cli v2 program's commands, read from its help

USAGE:
   %[1]s [--effects FILE] PROGRAM [flags] COMMAND [arguments...]

   PROGRAM is a path (./bin/dbkit) or a name on $PATH. What follows it is this command
   line for that program: %[1]s dbkit tools list, %[1]s dbkit call status --input '{}',
   %[1]s dbkit serve, %[1]s dbkit mcp. Every call runs PROGRAM (the subprocess lane),
   under the same governance as any adopted program (docs/adopt.md, "Zero lines").

   --effects FILE  what each command does, in YAML (an "effects:" table, docs/adopt.md
                   "Effects"); a command declared nowhere is served as destructive, so
                   the default policy asks before each of its calls
`

// WrapCommand returns the `wrap PROGRAM …` subcommand (cmd/cmdbridge adds it through
// Config.Subcommands): [Wrap] with the rest of the command line, which has cfg.Hosted
// besides the bridge's commands. cfg may be nil.
func WrapCommand(cfg *Config) *cli.Command {
	return &cli.Command{
		Name:            "wrap",
		Usage:           "serve an installed urfave/cli v2 program from its help, changing nothing ('wrap PROGRAM tools list')",
		ArgsUsage:       "[--effects FILE] PROGRAM [command and flags…]",
		SkipFlagParsing: true,
		HideHelp:        true,
		Action: func(ctx *cli.Context) error {
			name := ctx.App.Name + " wrap"
			args := ctx.Args().Slice()
			if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
				fmt.Fprintf(ctx.App.Writer, wrapHelp, name)
				if len(args) == 0 {
					return cli.Exit("", bridgecli.ExitUsage)
				}
				return nil
			}
			c, args, err := wrapOptions(name, cfg, args)
			if err != nil {
				return cli.Exit(err.Error(), bridgecli.ExitUsage)
			}
			if code := wrap(name, args[0], args[1:], ctx.App.Writer, errWriter(ctx.App), c); code != 0 {
				return cli.Exit("", code)
			}
			return nil
		},
	}
}

// wrapOptions reads wrap's own options, which come before PROGRAM: --effects FILE (the
// effects table in YAML, as Config.EffectsYAML has it). It returns what serves the
// Config they make and the arguments from PROGRAM on.
func wrapOptions(name string, cfg *Config, args []string) (serving, []string, error) {
	c := config(cfg)
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		opt, value, inline := strings.Cut(args[0], "=")
		if opt != "--effects" && opt != "-effects" {
			return c, nil, fmt.Errorf("%s: unknown option %s before PROGRAM (wrap's only option is --effects FILE; the bridge's flags go after PROGRAM)", name, args[0])
		}
		args = args[1:]
		if !inline {
			if len(args) == 0 {
				return c, nil, fmt.Errorf("%s: --effects needs a FILE (the effects table in YAML, docs/adopt.md \"Effects\")", name)
			}
			value, args = args[0], args[1:]
		}
		if len(c.EffectsYAML) > 0 {
			return c, nil, fmt.Errorf("%s: --effects %s: effects are declared already (Config.EffectsYAML or an earlier --effects)", name, value)
		}
		data, err := os.ReadFile(value)
		if err != nil {
			return c, nil, fmt.Errorf("%s: --effects: %v", name, err)
		}
		if c.effectsFile, err = filepath.Abs(value); err != nil {
			return c, nil, fmt.Errorf("%s: --effects: %v", name, err)
		}
		c.EffectsYAML = data
	}
	if len(args) == 0 {
		return c, nil, fmt.Errorf("%s: name the PROGRAM to wrap after its options (--effects FILE; '%s --help')", name, name)
	}
	return c, args, nil
}

// Wrap serves an installed urfave/cli v2 program you can neither change nor import,
// with zero lines of Go: its command tree, flags, defaults, environment variables and
// usage are read from its help output (package helptree), every call runs the program
// itself on the subprocess lane (never in-process: the described commands are stubs),
// and governance, policy and evidence are those of any adopted program. args is the
// command line after the program (`tools list`, `call NAME --input …`, `serve`,
// `mcp`); the exit status is returned. Config.Commands, Tiers, InProcess, New and
// Prepare do not apply (there is no Go to run in-process); cfg may be nil.
//
//	os.Exit(host.Wrap("dbkit", os.Args[1:], nil))
func Wrap(program string, args []string, cfg *Config) int {
	return wrap("cmdbridge wrap", program, args, os.Stdout, os.Stderr, config(cfg))
}

func wrap(name, program string, args []string, stdout, stderr io.Writer, c serving) int {
	if c.Commands != nil || len(c.Tiers) > 0 || len(c.InProcess) > 0 || c.New != nil || c.Prepare != nil {
		fmt.Fprintf(stderr, "%s: Config.Commands, Tiers, InProcess, New and Prepare do not apply to a wrapped program (it only ever runs as a process): leave them out\n", name)
		return bridgecli.ExitUsage
	}
	if bin := os.Getenv("CMDBRIDGE_BIN"); bin != "" {
		// The variable names the corpus's (or an adopter's) binary: under wrap it would
		// run every call of PROGRAM's tools with another program.
		fmt.Fprintf(stderr, "%s: CMDBRIDGE_BIN=%s is set, but a wrapped program's calls run %s itself: unset it (--bin after the program still picks another binary)\n", name, bin, program)
		return bridgecli.ExitUsage
	}
	opts := helptree.Config{Skip: func(e helptree.Entry) bool { return strings.HasPrefix(e.Usage, adopted.BridgeUsage) }}
	exe, newApp, warnings, err := discover(program, opts)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return bridgecli.ExitFailed
	}
	c.Binary, c.Subcommands = exe, c.Hosted
	c.described = &described{reason: wrappedReason, warnings: warnings}
	host, err := c.host(newApp, newApp(), true, exe)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %s: %v\n", name, program, err)
		return bridgecli.ExitFailed
	}
	host.Name = name + " " + program
	host.ServerName = newApp().Name // an MCP host lists the program's tools under its name
	// What re-launches this command line (mcp enable's entry, the sandbox runner): the
	// same program with the same effects, never one without them.
	host.Self, host.SelfPaths = []string{"wrap", exe}, []int{1}
	if c.effectsFile != "" {
		host.Self, host.SelfPaths = []string{"wrap", "--effects", c.effectsFile, exe}, []int{2, 3}
	}
	return bridgecli.Main(append([]string{host.Name}, args...), stdout, stderr, host)
}

// discover reads an installed program's command tree from its help: an urfave/cli v2
// program's pages, or, when its help is not one, a cobra program's (pflag's usage lines
// carry each flag's type). It returns the program's path, a constructor of the app that
// describes it, and the warnings per tool.
func discover(program string, opts helptree.Config) (string, func() *cli.App, map[string][]string, error) {
	tree, err := helptree.Discover(context.Background(), program, opts)
	if err == nil {
		return tree.Program, tree.App, tree.Warnings(), nil
	}
	var notURFave *helptree.NotURFaveError
	if !errors.As(err, &notURFave) {
		return "", nil, nil, err
	}
	desc, exe, cerr := helptree.DiscoverCobra(context.Background(), program, opts)
	if cerr != nil {
		return "", nil, nil, err // the urfave/cli reading's error says what was expected
	}
	stub := func(path []string) cli.ActionFunc {
		return func(*cli.Context) error {
			return cli.Exit(fmt.Sprintf("%s: this command was read from %s's help and only describes it: run the program itself (the subprocess lane)", strings.Join(path, " "), program), 70)
		}
	}
	warnings := unknownFlags(desc)
	return exe, func() *cli.App { return apptree.Build(desc, stub) }, warnings, nil
}
