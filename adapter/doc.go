// Package adapter runs legacy urfave/cli commands as tools: in-process under a swapped
// "costume" of process globals (the adapter lane), or as a real process (the subprocess
// lane), and maps flags to a JSON Schema, JSON input to argv, and the command's JSON
// envelope to a tool.Output.
//
// # Running
//
// [Run] runs a registered command's main in-process with os.Args = [name, argv...] and
// returns exactly the stdout, stderr and exit code a real process `delivery name argv...`
// would give. [RunSubprocess] runs `Config.Binary name argv...` and returns the same
// [Result]. Invariants of [Run]:
//
//   - One run at a time, first come first served; a queued call leaves the queue when
//     its context ends (status timeout or cancelled, nothing ran).
//   - The costume, put on under the lock and taken off in one deferred block on the
//     main's goroutine however the main ends: os.Args, os.Stdin, os.Stdout, os.Stderr,
//     cli.OsExiter, cli.ErrWriter, every other exported urfave/cli global (printers,
//     shared flags and their contents, stringers, suggesters, templates), the standard
//     log's output, flags and prefix, flag.CommandLine and flag.Usage, the working
//     directory (always restored, by file descriptor, even when the main moved it) and
//     the variables of Config.Env. Nothing else of the process is touched.
//   - Exit: cli.OsExiter records the first exit code and the length of both streams,
//     then unwinds the main's goroutine (a panic only the runner recovers) or ends the
//     calling goroutine (runtime.Goexit) when called from a goroutine the main started.
//     Output written after the exit point is cut; the recorded code wins even when the
//     command recovers the unwinding panic. The host process never exits.
//   - Any other panic gives exit code 2 and "panic: <value>\n" on stderr, what Go prints
//     before its goroutine dump. A flag.CommandLine parse failure gives 2 and -help 0,
//     after the usage, as flag.ExitOnError would.
//   - Config.Stdin is os.Stdin for the run, a memory file (memfd) holding it: a real
//     *os.File, readable to end of file, that never blocks a command reading it or not.
//     [RunSubprocess] gives the child a memory file with the same bytes as descriptor 0.
//   - Capture goes to memory files (memfd) reused across runs: nothing needs draining,
//     output of any size never blocks the command, and each stream is capped at
//     Config.MaxOutput (8 MiB by default) with a truncated flag.
//   - A deadline gives exit code 124 and status timeout, a cancellation 130 and status
//     cancelled, with a "[name] timeout: …" or "[name] cancelled: …" line appended to
//     stderr; a main that ends after its deadline is still a timeout. A main that
//     outlives its call (a zombie) keeps the lock and the costume until it ends; calls
//     made or queued meanwhile run on the subprocess lane when Config.Binary is set.
//   - Goroutines the main started and left running are counted (pprof labels) and
//     reported; the streams are then replaced so they cannot write into a later run.
//
// Hosts must not write to os.Stdout or os.Stderr after start-up (keep your own writers):
// during a run those variables point at the capture.
//
// The in-process lane cannot reproduce what a command bound to the real streams before
// the run (a logger made from os.Stderr at package init writes to the host's stderr):
// such a command must use the subprocess lane.
//
// # Tiers
//
// A command's Tier (legacy.Command.Tier) is bridgecheck's verdict, read from the tier
// table the program keeps in its own repository (`bridgecheck -tiers`; the corpus's
// commands/all/tiers.json): in-process, or subprocess when the analyzer found code the
// costume cannot contain. [Call] never runs a subprocess-tier command in-process: asked
// for the adapter lane it runs the subprocess lane, with metadata lane "subprocess" and
// reason "tier". A command with no tier (nobody analysed it) does the same, with reason
// "unanalysed", whenever a binary is configured and Config.RunUnanalysed is not set ([Route]
// says which; parity's adapter lane asks it too). [Run] does what it is told whatever the
// tier.
//
// # Schema and texts
//
// [Schema] and [Spec] derive the tool from the pristine app alone, so an adopter's
// commands get the same treatment as the corpus:
//
//   - Texts speak tool, not CLI: in App.Usage and every flag Usage, a flag or alias
//     (--code-paths, -c) becomes its property (code_paths; a boolean reads
//     execute=true), a positional placeholder (<REF>, [<REF>]) its property, urfave/cli's
//     backtick placeholder loses its backticks, and an aside "(or the positional ID)" is
//     dropped when flag and positional are one property. Words the app does not define
//     stay. A positional's description is its entry in legacy.MetaArgDescriptions.
//   - Rules the command enforces between inputs (legacy.MetaConstraints: one of,
//     exclusive, requires, together, a required flag-or-positional) are written into the
//     schema by tool.ApplyConstraints, so hosts and the kernel refuse a call that breaks
//     one before it runs. They only refuse: [Argv] of a valid input is unchanged.
//   - No input becomes an option: every positional (the "args" fallback's items too)
//     has tool.OperandPattern, so a value beginning with "-" is refused before the
//     command runs, unless legacy.MetaArgLeadingDash (TreeOptions.LeadingDash for a
//     tree's leaf) lets it or an enum lists the words; [Argv] writes a flag's value as
//     the next word (--name VALUE), attached (--name=-x) when it begins with "-", and
//     always puts "--" before the positionals.
//   - Derivation never fails on what urfave/cli allows: every v2 flag type maps (the
//     SliceFlag wrappers by their Target, a Generic without a default its String() does
//     not give), positionals come from ArgsUsage or else UsageText, and a third-party flag
//     type, a usage outside the grammar or positionals declared nowhere map to a
//     documented fallback (a string or boolean flag; one "args" list passed verbatim as
//     positionals, none when legacy.MetaNoArgs says so) that [Argv] can run,
//     reported by [Warnings] and tool.Spec.Warnings (docs/schemas.md). Only malformed
//     cmdbridge metadata makes [Schema] or [Spec] fail.
package adapter
