// Package goroutines is the bridgecheck rule family for go statements (go-in-action)
// in legacy command packages: reported when a command can run them, that is in code
// reachable by references from a registration's New and Main, from a cli.App or
// cli.Command Action, Before or After, or — in a package that registers no command —
// from its exported functions and methods.
//
// Invariants: reports only in legacy command packages and never in _test.go files;
// a go statement no command, action or exported API reaches is not reported; whether
// the goroutine is waited for is not judged (the statement itself is reported).
package goroutines
