// Package cli is the cmdbridge command line: a urfave/cli v2 app built fresh on every run,
// whose subcommands list tools, print schemas and the manifest, call tools, run batches and
// verify evidence.
//
// Invariants:
//
//   - Every call goes through the kernel (kernel.Kernel.Call or Batch); the command line
//     adds argument parsing and printing, never a second path to a lane.
//   - Output is written to the writers handed to [Main], captured before any tool runs, so
//     a legacy command that writes to os.Stdout during a call cannot mix into results.
//   - Exit status: 0 when the command (or every call) succeeded, 1 when a tool failed, 2 on
//     a usage error (unknown subcommand or flag, malformed --input).
package cli
