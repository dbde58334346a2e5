// Package recovers is the bridgecheck rule family for calls of the recover builtin
// (recover) in legacy command packages, wherever they are: the adapter's exit signal
// is a panic that a recover on the way swallows.
//
// Invariants: reports only in legacy command packages and never in _test.go files;
// only the builtin counts, not a function of the package named recover.
package recovers
