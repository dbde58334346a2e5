// Package mainlogic is the bridgecheck pass for what a program's func main does around
// app.Run: in a package main that builds its urfave/cli app, every statement of main
// other than building the app (assignments of an app, its fields, the appended bridge
// command), running it, and the default error report (print the error on stderr, exit
// 1) is logic the in-process lane skips, since it runs the app without main. Each is
// reported ([main-logic]) unless the package sets host.Config.Prepare, the hook
// that runs it in-process: then the statements are the result's Notes, for the driver
// to print without counting them as findings.
//
// Invariants: only func main of a package main the scope pass finds legacy; never
// reports code the in-process lane runs (the rule families check that); the result
// depends only on the source.
package mainlogic
