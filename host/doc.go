// Package host serves a program's commands from a process that links the serving stack:
//
//   - [Command], the in-process line: the bridge subcommand serving inside the adopter's
//     program, where vouched-for commands run in-process ([Config.InProcess], Tiers,
//     with [Config.New] and [Config.Prepare]) and native implementations natively.
//   - [Main], a standalone main over an importable app or legacy registries
//     (cmd/cmdbridge is it over the delivery corpus).
//   - [Wrap], a program read from its help, with zero lines of Go.
//   - [Adopted], a program adopted with the light line (cmdbridge.Command), read from
//     its manifest: cmd/cmdbridge runs it when such a program execs it.
//
// Linking this package also makes the light line serve in-process (a build with the
// developer commands imports it), since the serving stack is in the program anyway.
//
// Invariants:
//
//   - A command nobody analysed (no verdict in the [Config.Tiers] table) never runs
//     in-process unless [Config.InProcess] says so: a direct os.Exit, log.Fatal or
//     cli.Show*AndExit in it cannot end the host.
//   - What Wrap and Adopted describe is never run in-process: every call runs the
//     program itself, and what re-launches the command line (mcp enable, the sandbox
//     runner) launches the program, not the host.
//   - Nothing here holds data of any particular program: pack, tiers, routes, binary and
//     versions come from the Config or are derived from the app.
package host
