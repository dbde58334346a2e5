package cmdbridge

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/adopted"
	"github.com/cmdbridge/cmdbridge/internal/apptree"
	"github.com/cmdbridge/cmdbridge/tool/effect"
)

// Config says how a program's commands become tools. Every field is optional: nil (or
// the zero Config) serves every leaf of the app's command tree with the plain output
// convention, on the subprocess lane. It holds no function and no secret: the light
// line hands it to the cmdbridge host as JSON (package host adds what only a program
// linking the serving stack can use, such as in-process runs and native handlers).
type Config struct {
	// Name is the bridge subcommand's name ([Command]; default "bridge").
	Name string `json:"name,omitempty"`
	// Pack names the tool pack: a spelling may carry it as a prefix, and the manifest
	// and GET /tools show it. Default: none.
	Pack string `json:"pack,omitempty"`
	// Version is the version the MCP server reports (default: the app's Version).
	Version string `json:"version,omitempty"`
	// Output is the output convention of every command of the app ([OutputPlain], the
	// default, or [OutputEnvelope]); Outputs overrides it per tool name.
	Output  string            `json:"output,omitempty"`
	Outputs map[string]string `json:"outputs,omitempty"`
	// LeadingDash names, per tool, the positionals (as the usage spells them) whose
	// values may begin with "-"; every other positional refuses such a value, so no
	// caller can hand the program, or what it runs, an option (docs/schemas.md).
	LeadingDash map[string][]string `json:"leading_dash,omitempty"`
	// Effects declares what the leaves of the app's tree do, keyed by tool name or
	// doublestar glob: read-only, destructive, idempotent, open world, network, runs
	// workspace code, and the inputs that narrow it (a dry run is read-only). A tool's
	// own name wins over globs, and the glob with the most literal characters over the
	// others. A leaf declared nowhere is destructive: the default policy asks before it
	// runs, and `tools list` and `status` warn about it (docs/adopt.md, Effects).
	// EffectsYAML is the same table in YAML (an `effects:` map; embed the file), merged
	// with Effects: a key in both is an error. Only the program declares effects: a
	// workspace's configuration cannot, so it can never loosen them.
	Effects     map[string]Effects `json:"effects,omitempty"`
	EffectsYAML []byte             `json:"effects_yaml,omitempty"`
	// NoArgs names the leaves (tool names or doublestar globs, "*" for all) that take
	// no positionals. A leaf whose usage (ArgsUsage, UsageText) declares none gets a
	// generic "args" list with a warning, since its action may read c.Args() all the
	// same; listing it here (or a blank ArgsUsage, " ") says it does not.
	NoArgs []string `json:"no_args,omitempty"`
	// WorkspaceEnv names the variable holding the default workspace (default
	// CMDBRIDGE_WORKSPACE).
	WorkspaceEnv string `json:"workspace_env,omitempty"`
	// Binary is the program the subprocess lane runs. [Command] defaults to the running
	// executable (your program itself); host.Main to the app's name looked up next to
	// its executable and on $PATH.
	Binary string `json:"binary,omitempty"`
}

// Effects is what one command declares it does ([Config.Effects]); the zero Effects
// declares a command that writes but destroys nothing.
type Effects = effect.Declared

// The output conventions of [Config.Output]: plain text (whatever the command prints,
// with its exit status), or the corpus's JSON envelope.
const (
	OutputPlain    = "plain"
	OutputEnvelope = "envelope"
)

// startEnviron is the environment the program was started with, read when this package
// is initialised, before the program's main runs: the host, and every process it starts
// for a call, get it, so what main does to its own environment before the bridge runs
// (a .env loaded by a pre-parser of os.Args) does not reach them as if the caller had
// set it. Never written after.
var startEnviron = os.Environ()

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
	name := c.Name
	if name == "" {
		name = "bridge"
	}
	return &cli.Command{
		Name:            name,
		Usage:           adopted.BridgeUsage + " (cmdbridge; '" + name + " --help' lists what it does)",
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
	cfg, err := json.Marshal(c)
	if err != nil {
		return cli.Exit(fmt.Sprintf("%s %s: %v", app.Name, bridge, err), 1)
	}
	m := adopted.Manifest{
		Format: adopted.Format, Version: adopted.Version(), Bridge: bridge, Config: cfg,
		App: apptree.Describe(app, func(cmd *cli.Command) bool { return cmd.Name == bridge }),
	}
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(m); err != nil {
		return cli.Exit(fmt.Sprintf("%s %s: %v", app.Name, bridge, err), 1)
	}
	return nil
}

// serve hands the command line to the cmdbridge host: `HOST __adopted THIS BRIDGE
// ARGS…`, with the environment the program started with. On Unix the host replaces
// this process, so signals, standard streams and the exit status are the host's own.
func serve(title, bridge string, args []string) error {
	exe, err := os.Executable()
	if err != nil {
		return cli.Exit(fmt.Sprintf("%s: %v", title, err), 1)
	}
	host := os.Getenv(adopted.HostEnv)
	if host == "" {
		if host, err = exec.LookPath("cmdbridge"); err != nil {
			return cli.Exit(fmt.Sprintf("%s: serving this program's commands needs the cmdbridge host, which is not installed: install it with\n\n\t%s\n\n"+
				"(the version this program was built with), or set %s to its path (docs/adopt.md).",
				title, adopted.InstallHint(adopted.Version()), adopted.HostEnv), 1)
		}
	}
	argv := append([]string{host, adopted.HostWord, exe, bridge}, args...)
	code, err := execHost(host, argv, startEnviron)
	if err != nil {
		return cli.Exit(fmt.Sprintf("%s: starting the cmdbridge host %s: %v (%s names another host)", title, host, err, adopted.HostEnv), 1)
	}
	if code != 0 {
		return cli.Exit("", code)
	}
	return nil
}
