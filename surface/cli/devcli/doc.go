// Package devcli holds the developer commands of the cmdbridge command line: parity (the
// three-lane parity suite) and scaffold (a native tool's starting point generated from a
// command), and with them the migration report, status (package surface/cli/statuscmd,
// which a command line may also have alone). A command line has them when it is handed
// them ([Commands] in host.Config.Subcommands, which cli.Host embeds); a program that
// does not import this package links none of their tooling (testscript, the testing
// package, go/packages, jennifer), and asked for one of them it says how to get it.
//
// The corpus binary (cmd/cmdbridge) adds them to its subcommands. An adopter of the
// light line calls [Enable] from a file of their main package built only under the
// cmdbridge_dev tag (cli.DevTag), and runs the commands with `go run -tags cmdbridge_dev
// . bridge parity` (docs/adopt.md): that build links package host, so the light line
// (cmdbridge.Command) serves in-process, where the commands are, instead of exec the
// cmdbridge host.
//
// Invariants:
//
//   - The commands have the shape of every subcommand of surface/cli (options, a
//     constructor that binds the flags, a run function): the host's registries
//     (cli.HostOf), exit statuses 0, 1 and 2 (errors mapped once by cli.Main), output on
//     the writers handed to cli.Main.
//   - Nothing registers them behind a program's back: no init function of this package
//     does anything, and surface/cli never imports it.
package devcli
