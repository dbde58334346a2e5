// Package devcli holds the developer commands of the cmdbridge command line: parity (the
// three-lane parity suite) and scaffold (a native tool's starting point generated from a
// command). Importing it registers them (cli.Register) in every command line the program
// builds; a program that does not import it links none of their tooling (testscript, the
// testing package, go/packages, jennifer), and asked for one of them it says how to get
// it.
//
// The corpus binary (cmd/cmdbridge) imports it. An adopter imports it from a file of
// their main package built only under the cmdbridge_dev tag (cli.DevTag), and runs the
// commands with `go run -tags cmdbridge_dev . bridge parity` (docs/adopt.md). It links
// package host, so in that build the light line (cmdbridge.Command) serves in-process,
// where the commands are, instead of exec the cmdbridge host.
//
// Invariants:
//
//   - The commands behave as every other subcommand of surface/cli: the host's registries,
//     exit statuses 0, 1 and 2, output on the writers handed to cli.Main.
//   - Nothing but this package's init registers them; surface/cli never imports it.
package devcli

import _ "github.com/cmdbridge/cmdbridge/host" // the light line serves in-process where the developer commands are
