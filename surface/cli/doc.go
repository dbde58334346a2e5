// Package cli is the cmdbridge command line: a urfave/cli v2 app built fresh on every run.
// Its subcommands:
//
//   - tools list|schema|manifest, call, batch, evidence verify — the kernel's tools;
//   - mcp — the MCP server on stdio (--profile, --tools: a kernel view); mcp enable,
//     disable, list — its entry in a host's configuration (package mcphost); mcp
//     profiles — the profiles a view can name; serve — the HTTP conductor sidecar (tools, events,
//     /mcp) on loopback, and with --nats also on a broker (package broker); token
//     mint|verify|rotate — its bearer tokens; enroll — the identity a control plane
//     issued; conductor — a small control plane over the broker, only in a command line
//     handed it (package surface/cli/conductor, in Host.Subcommands: cmd/cmdbridge's);
//   - status — the migration report (text, JSON, HTML), only in a command line handed it
//     (package surface/cli/statuscmd, StatusPackage: in Host.Subcommands, as
//     cmd/cmdbridge's and every build with the developer commands have it); parity —
//     the three-lane parity suite, and scaffold — a native tool's starting point
//     generated from a command, only in a command line handed them (DevPackage's
//     Commands, in Host.Subcommands);
//     asked for one of them, a program without it answers how to build it in;
//   - __sandbox-run (hidden) — the tool runner the sandbox lane starts inside bwrap.
//
// Every command has the shape of gh's: an options struct, a constructor
// newXCmd(f, runF) that binds the flags to it, and a runX(opts) function that does the
// work with the streams and the host the factory (factory.go) handed the constructor.
// The command list is written out in app.go (commands); nothing registers from init.
//
// Invariants:
//
//   - Every call goes through the kernel (kernel.Kernel.Call or Batch); the command line
//     adds argument parsing and printing, never a second path to a lane.
//   - No command reads the host from the app's Metadata or a package variable: the
//     factory holds it, and [HostOf] reads the run's context for subcommands of other
//     packages (Host.Subcommands). Two command lines of one process share nothing.
//   - Output is written to the writers handed to [Main], captured before any tool runs, so
//     a legacy command that writes to os.Stdout during a call cannot mix into results.
//   - Exit status: 0 when the command (or every call) succeeded, 1 when a tool failed, 2 on
//     a usage error (unknown subcommand or flag, malformed --input). Commands return
//     errors wrapped with their context and never choose a status: [Main] alone maps an
//     error to its message and status, once (a [UsageError] 2, [ErrSilent] 1 with nothing
//     more printed, any other error 1).
package cli
