// Package adoptconfig is what an adopter configures: how a program's commands become
// tools, whichever framework the program is written with. cmdbridge.Config and
// cobrabridge.Config are this Config, so there is one source of it. It imports the
// standard library and tool/effect only, so every framework's light line can link it.
package adoptconfig

import "github.com/cmdbridge/cmdbridge/tool/effect"

// Config says how a program's commands become tools. Every field is optional: nil (or
// the zero Config) serves every leaf of the app's command tree with the plain output
// convention, on the subprocess lane. It holds no function and no secret: the light
// line hands it to the cmdbridge host as JSON (package host adds what only a program
// linking the serving stack can use, such as in-process runs and native handlers).
type Config struct {
	// Name is the bridge subcommand's name (default "bridge").
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
	// Binary is the program the subprocess lane runs. The bridge subcommand (cmdbridge.Command,
	// cobrabridge.Command) defaults to the running executable (your program itself);
	// host.Main to the app's name looked up next to its executable and on $PATH.
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
