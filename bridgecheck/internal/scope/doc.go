// Package scope is the analysis pass every bridgecheck rule family requires: it decides
// which rule set applies to a package and finds the commands it registers, and holds
// the rule table (names, why each construct is unsafe in-process, what to write
// instead) so that every diagnostic and docs/adapter-safety.md agree.
//
// # Which packages are checked
//
// A package is a legacy command package when it registers a command — it holds a
// registration: a struct literal with a constant string Name, a New func() *cli.App
// and a Main field, the shape of legacy.Command, whatever the struct's package — or
// when it builds commands for registrations made elsewhere: an exported function
// returning a *cli.App or *cli.Command that it builds with an Action, Before or After
// (commands/convention's App). The registry and dispatcher (commands) and programs
// that only run their own app (cmdbridge's CLI) are not legacy packages. The -legacy
// flag (import path patterns, doublestar syntax, comma separated) replaces the
// detection when set. A package is a native tool package when its import path
// matches -native ("**/nativetools/**" by default).
//
// # What the result says
//
// [Scope] tells the families which files they check ([Scope.Checked]: never _test.go
// files, never generated test mains), which code a command, a cli.App or cli.Command
// Action, Before or After — or, in a package that registers nothing, its exported API —
// reaches by references ([Scope.Reached], for go statements), and which commands own a
// position ([Scope.Owners]): the code a registration's New and Main reach through
// references within the package (a function passed as a value counts; a reached type
// brings all its methods). References are collected in one inspector pass and searched
// by range, never by walking the syntax again.
//
// Invariants: the pass reports nothing; its result depends only on the source (no
// paths of the machine, no time); the -legacy and -native flags are process-wide,
// shared by every analyzer that requires this one.
package scope
