// Package exitcall is the bridgecheck rule family for calls that end or unwind the
// process: os.Exit (os-exit), log.Fatal* and (*log.Logger).Fatal* (log-fatal),
// log.Panic* (log-panic) and urfave/cli's Show*AndExit (show-and-exit), in legacy
// command packages (see bridgecheck/internal/scope for which packages those are).
//
// # Exits through other packages
//
// The analyzer's fact [Exits] marks every function and method, in any package outside
// the standard library and urfave/cli, whose body refers to an exiting function:
// directly, through a function of its own package (to a fixed point), or through a
// function of another package carrying the fact. A legacy command package that refers
// to such a function of another package is reported there as os-exit, naming where it
// ends ("[os-exit] util.Die (which ends in os.Exit)"); no fix is offered for it. As a
// vet tool the facts travel between packages through go vet's fact files; standalone
// and -tiers load every dependency's syntax for them.
//
// # Suggested fixes
//
// A fix is offered only where it keeps what the real process does and the file
// already imports urfave/cli under a name that is not shadowed at the call:
//
//   - os.Exit(n) as a statement of an action — the innermost function is a
//     func(*cli.Context) error, whose returned error urfave/cli turns into the exit —
//     becomes return cli.Exit("", n). Anywhere else (a Main, a helper, an init, a
//     deferred call, os.Exit as a value) os.Exit becomes cli.OsExiter: a real process
//     runs it as os.Exit, the adapter catches it. A helper returning error is not an
//     action: its caller may drop the error, so it gets cli.OsExiter too.
//   - log.Fatal*(…) as a statement becomes log.Print*(…) (the same logger, the same
//     text) followed by return cli.Exit("", 1) in an action, cli.OsExiter(1)
//     elsewhere.
//   - cli.Show*HelpAndExit(c, …, code) as a statement becomes
//     _ = cli.Show*Help(c, …) followed by return cli.Exit("", code) in an action,
//     cli.OsExiter(code) elsewhere, when the Show*Help function exists.
//
// log.Panic* has no fix; neither has a call that is not a statement of its own (go
// log.Fatal(…)), nor a file that does not import urfave/cli.
//
// Invariants: reports only in legacy command packages and never in _test.go files
// (facts are exported for every package, never from _test.go files); a fact's Via does
// not depend on map order;
// every fix compiles where it is offered (after unused imports are removed, as go vet
// -fix does).
package exitcall
