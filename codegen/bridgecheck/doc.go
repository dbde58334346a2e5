// Package bridgecheck is the analyzer (golang.org/x/tools/go/analysis) that tells which
// legacy commands are safe to run in-process under the adapter, and keeps native tools
// off process globals.
//
// # Rules
//
// In legacy command packages (import paths matching -legacy, by default
// "**/commands/*/**": every package below a commands/ folder, not the commands
// registry and dispatcher itself, which the adapter never runs) it reports os.Exit,
// log.Fatal*, log.Panic*, urfave/cli's Show*AndExit, package-level *cli.App, cli.Flag and
// []cli.Flag values, package-level values bound to os.Stdout or os.Stderr (at their
// declaration or in an init function), go statements in code reachable from a command
// or an action, recover(), os.Chdir and (*os.File).Chdir, os.Setenv, os.Unsetenv and
// os.Clearenv. In native tool packages (-native, by default "**/nativetools/**") it
// reports every package-qualified use of os.Stdout, Stderr, Stdin, Args, Exit, Getenv,
// LookupEnv, Environ, ExpandEnv, Getwd, Chdir, Setenv, Unsetenv, Clearenv and of the
// flag and log packages. Each diagnostic names its rule ("[os-exit] …"; also its
// Category), says why the construct is unsafe in-process and what to write instead.
//
// # Commands and what they own
//
// A command registration is recognised by shape: a struct literal with a constant
// string Name, a New func() *cli.App and a Main field. A command owns its New and Main
// expressions and every package-level function, method and variable they reach by
// reference (a function passed as a value counts; a reached type brings all its
// methods). A finding in code no command of the package reaches (init functions,
// helpers only reached through other packages) counts against every command of the
// package: the safe side. go statements are reported only in code reachable from a
// registration or from a cli.App/cli.Command Action, Before or After; in a package that
// registers no command, from its exported functions and methods too.
//
// Findings in a helper package that registers no command (commands/convention) are
// reported but charged to no command: [Tiers] lists them as shared, for a person to
// judge, because charging them to every importer would move the whole corpus at once.
//
// # Tiers
//
// [Tiers] loads packages with go/packages, runs the analyzer and returns each command's
// tier: in-process when nothing is charged to it, subprocess otherwise. [Table.JSON] is
// the committed adapter/tiers.json.
//
// Invariants: the analyzer never reports in _test.go files or in packages matching
// neither pattern; legacy rules never apply to native packages unless a package matches
// both; the result depends only on the source (no paths of the machine, no time, stable
// order).
package bridgecheck
