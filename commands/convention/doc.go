// Package convention is the machinery every legacy command uses to follow corpus §2 of
// shared/spec/commands.md exactly while staying a legacy urfave/cli program: the command
// builds a *cli.App, its main runs it on os.Args, results go to os.Stdout, diagnostics
// to os.Stderr with the "[<command>] " prefix, and every exit goes through cli.Exit and
// cli.OsExiter.
//
// # Adding a command
//
// Create commands/<domain>/<name>.go and write, top-down, in this order:
//
//  1. registration: an init calling commands.Register with Name, Domain,
//     New: newXApp and Main: convention.Main(newXApp);
//  2. the constructor newXApp, returning convention.App(convention.Spec{…}): the flag
//     table in spec order, positionals (Args), combination rules (Rules), the tool
//     annotations (ReadOnly, Destructive, Idempotent, Network, OpenWorld), the inputs
//     that make a call harmless (Effects: a dry run is read-only), the path inputs
//     (Paths) and the Action;
//  3. the action func(c *convention.Call) error: read flags with c.String, c.Int,
//     c.Bool, c.Strings, c.Value (typed values), c.Arg (positionals); call package
//     delivery for the domain logic; end with c.Result(headline, data) (rules R1, R2,
//     R4) or c.Print(text, data) (a layout of its own); fail by returning c.Fail /
//     c.Failf or a *delivery.Error;
//  4. the output types: a struct per JSON data object, fields in spec order, every field
//     always present (pointers for null, empty slices for []).
//
// That is all: the adapter derives the tool's input schema and annotations from the app
// New returns, so the command becomes a tool with no further step. Use the typed flag
// constructors so the schema sees types: [Int] (with an optional range), [Enum] (a JSON
// Schema enum, through legacy.Choices), [Enums] (a repeatable a|b|c flag: still an
// array input, each value checked), [Date], [Duration], [WU], [MEM]; plain
// cli.StringFlag, cli.BoolFlag and cli.StringSliceFlag otherwise. Mark required flags with
// Required: true. --json is added for you. A positional whose type is a word list
// declares it in Arg.Choices, never in the action. Positionals are published in Metadata
// under [MetaArgs], and their Arg.Usage (what the positional holds) under
// legacy.MetaArgDescriptions.
//
// Every rule between inputs the command enforces is declared, so the tool schema
// carries it: Rules ([OneOf], [Exclusive], [Requires], [Together]) are checked by argv
// checking and published; Enforces lists the rules the command's own code checks with
// its own message ([Required] for a flag-or-positional or a passthrough, [RequiresWhen]
// for a rule on a value, a OneOf checked in a Before hook): published, never checked by
// argv checking. Both go to legacy.MetaConstraints.
//
// # What the runner guarantees
//
//   - Usage errors (corpus §2.1): before anything runs, Run checks the environment
//     (delivery.NewRuntime), then argv left to right (unknown flag, missing value,
//     malformed value, a positional outside its Choices, unexpected argument), then
//     missing required flags in table order and missing required positionals, then the
//     Rules in order. The first problem
//     prints "[<command>] usage: <canonical message>" on stderr (and the USAGE envelope on
//     stdout when --json occurs before "--") and exits 2. urfave/cli's own messages and
//     help-on-error never show.
//   - --help / -h prints the app's help on stdout and exits 0 without running the action.
//   - Output (corpus §2.2): the envelope {ok, command, data, error, warnings} with a 2-space
//     indent, no HTML escaping and a trailing newline; text rules R1–R4 through
//     [Fields], [Table] and [CommitLines]; warnings printed as "[<command>] warning: …"
//     when they happen and listed in the envelope; a failure prints "[<command>] error:
//     …" (one line per violation for VALIDATION, whose details always hold "errors").
//   - Exit codes (corpus §2.3): 0, 1 or 2 only, carried by cli.Exit so the adapter records
//     them. A panic in an action is recovered here and reported as INTERNAL, exit 1;
//     commands never call recover, os.Exit or cli.OsExiter themselves.
//
// # What it never does
//
// It never writes outside the command's stdout and stderr, never reads flags from an app
// that already ran, and never calls os.Exit: the exit happens in cli.HandleExitCoder,
// outside the action's recover, so the adapter's exit hook is never swallowed.
//
// Int flag Actions are called with a nil *cli.Context while argv is checked (that is how
// ranges are part of the type), so they must depend on the value only.
package convention
