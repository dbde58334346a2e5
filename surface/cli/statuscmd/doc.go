// Package statuscmd is the `status` command of the cmdbridge command line: the migration
// report of every tool (route, parity, golden coverage, bridgecheck tier, last parity
// run, and with --workspace the shadow runs a served workspace recorded), as text, JSON
// or one HTML page (package parity/status). A command line has it when it is handed it
// ([Command] in host.Config.Subcommands, which cli.Host embeds); asked for it, a program
// without it says which line adds it.
//
// It is a package of its own, not one of devcli's, because of what each links and
// where each runs. The report reads the repository (its scripts' txtar, its Go source
// to rank what to migrate next, an HTML template): an adopter's shipped bridge, which
// serves, links none of it. But it needs neither the testing package nor go/packages,
// as parity and scaffold do, and it needs only the tools' description, never the
// program's own Go: so the cmdbridge host gives it to the command line of a program
// adopted with the light line (host.Config.Hosted in cmd/cmdbridge), which the
// developer commands are left out of. devcli.Commands carries it with parity and
// scaffold, so a build with the developer commands (a tools binary, the cmdbridge_dev
// build) has it with the line it already has; a build that wants the report alone adds
// [Command].
//
// Invariants:
//
//   - The command has the shape of surface/cli's (options, a constructor binding the
//     flags, a run function with the streams injected); errors are returned wrapped,
//     and cli.Main maps them to exit statuses once.
//   - The kernel it builds to learn the routes gets a scratch workspace and evidence
//     directory, so asking for the status never writes a call's state into the
//     repository or the served workspace; the routes it reports are the committed
//     table's (with --workspace, the served workspace's).
package statuscmd
