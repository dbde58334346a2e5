// Package commands is the registry of legacy commands and the multi-call dispatcher that
// the delivery binary runs.
//
// A legacy command is a constructor returning a fresh *cli.App and a main that runs it on
// os.Args, prints results to os.Stdout and diagnostics to os.Stderr, and exits through
// cli.OsExiter (never os.Exit). Commands register themselves by canonical name from an
// init function in their domain package, one file each named by the tool's stem
// (commands/<domain>/<tool.Stem(name)>.go, docs/architecture.md "Where a tool lives");
// this package holds no command of its own.
//
// Invariants:
//
//   - One entry per canonical name: a duplicate registration panics at init, never
//     last-one-wins.
//   - New returns a pristine app on every call; nothing reads flags from an app that ran.
//   - [Dispatch] maps a process argv onto one command: argv[0]'s base name when it is a
//     command name (a symlink named after the command), otherwise argv[1]. It sets
//     os.Args to the command's own argv (argv[0] = the command name) and runs its main.
//     An unknown command exits 2 with a did-you-mean suggestion.
package commands

//go:generate go run ./internal/gentools -out ../docs/tools.md
