package legacy

import "github.com/cmdbridge/cmdbridge/internal/appspec"

// Keys of cli.App.Metadata through which a command describes itself as a tool. The flag
// table plus these keys are the command's one declaration: the adapter derives the tool
// schema and annotations from them, and codegen reads the same app.
const (
	// MetaReadOnly (bool): the command never writes (spec "RO").
	MetaReadOnly = "cmdbridge.read_only"
	// MetaDestructive (bool): the command may delete or overwrite data.
	MetaDestructive = "cmdbridge.destructive"
	// MetaIdempotent (bool): repeating the call with the same input changes nothing more.
	MetaIdempotent = "cmdbridge.idempotent"
	// MetaNetwork (bool): the command may reach the network (git push).
	MetaNetwork = "cmdbridge.network"
	// MetaOpenWorld (bool): the command reaches beyond the workspace's own data: it runs
	// configured or caller-given commands (gates, wu:sandbox) or reaches the network.
	// MetaNetwork implies it.
	MetaOpenWorld = "cmdbridge.open_world"
	// MetaRunsCode (bool): the command runs code the workspace defines (its configured
	// gate commands) or the caller passes, as processes of their own (tool.Annotations
	// RunsCodeHint). It implies MetaOpenWorld; the default policy asks before such a
	// call, and the kernel runs that code where its state and keys are hidden.
	MetaRunsCode = "cmdbridge.runs_code"
	// MetaEffects ([]tool.Effect): the inputs that make a call read-only or merely
	// writing although the command may destroy data (a dry run, a --check); the
	// read-only, destructive keys stay the worst case.
	MetaEffects = "cmdbridge.effects"
	// MetaPaths (map[string]string): input property → "read" or "write", for the inputs
	// that name files the command touches.
	MetaPaths = "cmdbridge.paths"
	// MetaConstraints ([]tool.Constraint): the rules between inputs the command enforces
	// (one of, exclusive, requires, together, a required flag-or-positional), naming
	// flags or positionals (code-paths or code_paths); the adapter writes them into the
	// input schema, so a call that breaks one is refused before the command runs.
	MetaConstraints = "cmdbridge.constraints"
	// MetaArgDescriptions (map[string]string): positional name → what it holds, the
	// tool-side description of a positional (App.ArgsUsage only names it).
	MetaArgDescriptions = "cmdbridge.arg_descriptions"
	// MetaArgChoices (map[string][]string): positional name → the words it accepts, for a
	// positional the command checks against a fixed list (its schema's enum).
	MetaArgChoices = "cmdbridge.arg_choices"
	// MetaArgTypes (map[string]string): positional name → the JSON type of its values,
	// "integer" or "number", for a positional the command parses as a number (a
	// framework's typed argument: urfave/cli v3's IntArg, FloatArgs…); a positional it
	// does not name is a string.
	MetaArgTypes = appspec.MetaArgTypes
	// MetaTrimmedFlags ([]string): string flags, by name, whose values the program trims
	// of white space (a described urfave/cli v3 program's StringConfig.TrimSpace). The
	// command would not get " /etc/x" as given, though the kernel judged it so (a
	// relative name): such a value is refused. A name used by several commands is
	// treated so in all of them.
	MetaTrimmedFlags = appspec.MetaTrimmedFlags
	// MetaSliceSeparators ([]string): every separator at which the command splits the
	// values of its string list flags (none: it splits none), when the app's own
	// (SliceFlagSeparator, DisableSliceFlagSeparator) do not say it: a described
	// urfave/cli v3 program, whose commands each split the flags they parse at their
	// own. An element holding one of them is refused.
	MetaSliceSeparators = appspec.MetaSliceSeparators
	// MetaArgLeadingDash ([]string): the positionals (named as the usage spells them, or
	// by their properties) whose values may begin with "-". Every other positional's
	// schema has tool.OperandPattern, so no caller can hand the command, or a program it
	// runs, an option in a positional's place. Opt a positional out only when the command
	// reads such a value as a value (a negative number) and never passes it on where it
	// could be read as an option (put it after "--" or git's --end-of-options).
	MetaArgLeadingDash = "cmdbridge.arg_leading_dash"
	// MetaNoArgs (bool): the command takes no positionals. A command whose usage
	// (ArgsUsage, UsageText) declares none gets a generic "args" list with a warning,
	// since its action may read c.Args() all the same; this says it does not.
	MetaNoArgs = "cmdbridge.no_args"
	// MetaSubcommands ([]string): the names and aliases of a tree leaf's own
	// subcommands (a group with an action of its own), set by [FromApp]: urfave/cli runs
	// the subcommand a first positional names, so an undeclared list is not offered.
	MetaSubcommands = "cmdbridge.subcommands"
	// MetaHelpWords ([]string): the words the command answers with its help, instead of
	// running, when one is its first positional: urfave/cli's "help" and "h", unless
	// the command hides its help (HideHelp, HideHelpCommand). Set by [FromApp] for an
	// app's commands, and by a describer for a described program's (v3bridge).
	MetaHelpWords = appspec.MetaHelpWords
)

// Choices is implemented by a cli.Generic flag value that accepts one of a fixed set of
// words; the adapter turns it into a JSON Schema enum.
type Choices interface {
	Choices() []string
}
