// Package hazard holds test-only legacy commands, each doing one thing that is unsafe to
// run in-process (printing megabytes, panicking, exiting from a goroutine, swallowing the
// exit, ignoring its context, writing through loggers, using flag.CommandLine, reading
// stdin or the environment, changing directory, changing urfave/cli's globals), plus a
// trivial echo for benchmarks and a flags command that declares every urfave/cli flag
// type.
//
// They are written the way the legacy corpus is: a constructor returning a fresh
// *cli.App, a main that runs it on os.Args, output through fmt to os.Stdout, exits
// through cli.Exit and cli.OsExiter. The adapter's tests run each one in-process and as
// a real process and compare the two.
//
// Invariants: the commands register only into the registry [Registry] returns, never
// into commands.Default; none of them runs longer than its --for flag (2 s by default);
// none touches the network or files outside the process's own temp directory.
package hazard
