// Package cmdbridge serves the commands of an urfave/cli v2 program as governed tools —
// over the command line, HTTP, MCP and in-process — through one kernel that checks
// governance, scopes and policy and writes signed evidence. It has two entry points,
// both one or two lines in the adopter's program (docs/adopt.md):
//
//   - [Command]: a subcommand appended to the program's own app, so the program's own
//     binary serves its tools (`gizmo bridge serve`) and is its own subprocess lane.
//   - [Main]: a standalone main for a program that can be imported but not changed.
//
// Every leaf of the app's command tree becomes a tool named by its path (`notes add` →
// notes:add), with an input schema from its own and inherited flags and its positional
// usage; a call runs the real tree, so help, usage errors and output are the program's
// own, byte for byte.
//
// Invariants:
//
//   - A command nobody analysed (no verdict in the [Config.Tiers] table) never runs
//     in-process unless [Config.InProcess] says so: a direct os.Exit, log.Fatal or
//     cli.Show*AndExit in it cannot end the host.
//   - A leaf whose effect nobody declared ([Config.Effects]) is served as destructive:
//     the default policy asks before it runs, and neither the read-only profile nor a
//     token without write scopes reaches it. Only the program declares effects, never a
//     workspace's configuration.
//   - Nothing here holds data of any particular program: pack, tiers, routes, binary and
//     versions come from the Config or are derived from the app.
package cmdbridge
