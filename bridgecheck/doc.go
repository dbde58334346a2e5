// Package bridgecheck tells which legacy commands are safe to run in-process under the
// adapter, and keeps native tools off process globals. It is a set of analysis passes
// (golang.org/x/tools/go/analysis), one per rule family, and the pass that combines
// them:
//
//   - exitcall: os.Exit, log.Fatal*, log.Panic*, urfave/cli's Show*AndExit, and calls
//     of other packages' functions that end in one (an analysis fact), with suggested
//     fixes (cli.Exit returned from an action, cli.OsExiter elsewhere);
//   - procglobals: package-level *cli.App and flags, values bound to os.Stdout or
//     os.Stderr, os.Chdir, os.Setenv/Unsetenv/Clearenv;
//   - goroutines: go statements a command can run;
//   - recovers: recover();
//   - nativeglobals: process globals in native tool packages, and calls of other
//     packages' functions that use one (an analysis fact);
//   - mainlogic (no family: its findings are charged to no command): what a program's
//     func main does around app.Run, which the in-process lane skips (.env loading,
//     error formatting, exit codes), unless host.Config.Prepare is set.
//
// Every family requires inspect.Analyzer (one traversal per package, shared) and the
// scope pass (bridgecheck/internal/scope), which decides what is checked: a package is
// a legacy command package when it registers a command (a struct literal with a
// constant string Name, a New func() *cli.App and a Main field: legacy.Command's
// shape) or builds apps for registrations made elsewhere (an exported function
// returning a *cli.App or *cli.Command it builds with an Action, Before or After) or is
// a program (package main building a *cli.App or cli.Command with an Action, Before or
// After: commands written in main's package); -legacy import path patterns replace that
// detection. In a program, code that only func main reaches is left to mainlogic: the
// in-process lane runs the app's constructor and actions, never main. Native tool packages are those
// matching -native ("**/nativetools/**"). Each diagnostic names its rule ("[os-exit]
// …"; also its Category), says why the construct is unsafe in-process and what to
// write instead.
//
// # Commands and what they own
//
// [Analyzer] reports nothing: it charges the families' findings to the commands of the
// package. A command owns its New and Main expressions and every package-level
// function, method and variable they reach by reference (a function passed as a value
// counts; a reached type brings all its methods). A finding in code no command of the
// package reaches (init functions, helpers only reached through other packages) counts
// against every command of the package: the safe side. Findings in a legacy package
// that registers no command (commands/convention) are charged to no command: [Tiers]
// lists them as shared, for a person to judge, because charging them to every importer
// would move the whole corpus at once. References are followed within a package; across
// packages, exitcall's fact follows exits: a command calling another package's helper
// that can end the process is reported at the call, and charged like any finding.
//
// # Drivers
//
// [Check] is the standalone driver's work: it runs [Analyzers] and counts the packages
// each rule set applied to, so that cmd/bridgecheck says what to pass, and fails, when
// it checked nothing. Both drivers load the packages and all their dependencies from
// source (facts are computed on dependencies), except the standard library, where no
// fact is computed: its types come from the compiler's export data, as go vet's do.
// [Tiers] runs [Analyzer] and returns each command's tier: in-process when nothing is
// charged to it, subprocess otherwise. [Table.JSON] is the tier table an adopter
// commits and loads (legacy.ParseTiers); the corpus's is commands/all/tiers.json.
//
// Invariants: nothing is reported in _test.go files or in packages that are neither
// legacy command packages nor native tool packages; legacy rules never apply to native
// packages unless a package is both; the result depends only on the source (no paths of
// the machine, no time, stable order).
package bridgecheck
