// Package conductor is the `conductor` command of the cmdbridge command line: a small
// control plane over the NATS broker (provision the streams, act as the broker's NATS
// issuer, issue enrollment tokens, list the workspaces that announce themselves, call a
// tool on one, send it a command, tail every workspace's events, keep their evidence
// heads; docs/scale.md). A command line has it when it is handed it ([Command] in
// host.Config.Subcommands, which cli.Host embeds, as cmd/cmdbridge does): a workspace's
// sidecar serves and enrolls, and never needs the control plane's commands, so an
// adopter's bridge links none of them.
//
// Invariants:
//
//   - Every command has the shape of surface/cli's (options, a constructor binding the
//     flags, a run function with the streams injected); errors are returned wrapped,
//     and cli.Main maps them to exit statuses once.
//   - Its own state (the key that signs enrollment tokens, the NATS issuer, the device
//     registry, the heads kept) is the --workspace's state directory (cli.StateDir).
package conductor
