// Package apptree describes an urfave/cli v2 application as plain, JSON-serialisable
// data and rebuilds an application skeleton from that description.
//
// An adopted program links this package and prints its own command tree
// (Describe, then encoding/json); a host process decodes the description and
// calls Tree.App to obtain a *cli.App from which it derives tool schemas
// exactly as it would from the program's own app.
//
// Invariants:
//
//   - Light: the non-test code imports only the standard library and
//     github.com/urfave/cli/v2, and does no work at package initialisation
//     (light_test.go enforces the dependency part).
//   - Exact round trip: for everything described, Describe → JSON → App yields
//     commands and flags of the same concrete urfave/cli types with equal field
//     values, and the same help output; Describe of the rebuilt app equals the
//     original description. Func fields (Action, Before, ...) are not
//     described; Tree.App attaches Actions supplied by the caller.
//   - Describe may be called on an app that has been set up (from inside its
//     own Run): the help command, help and version flags and the default
//     help Action that cli.App.Setup adds are left out, and the HelpName
//     prefix Setup puts on top-level commands is removed.
package apptree
