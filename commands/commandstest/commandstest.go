// Package commandstest gives tests the corpus's delivery binary as the script harnesses
// run it (the delivery directory below: cmd/delivery's main that also records its exit
// code where `exitcode N` reads it). It is a program of its own, not the test binary
// doubling as one: a test binary links the tests, testify and the toolkit, and starts
// about twice as slowly, which the suites that run the program thousands of times paid
// on every call.
package commandstest

import (
	"path/filepath"
	"testing"

	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
)

// Bin returns the directory holding the delivery binary, for a PATH. It is built once
// per run and shared by the run's test binaries and their children (parity's shards) as
// the outside modules are (outsidetest.Build): a package using it runs its tests
// through outsidetest.M.
func Bin(t testing.TB) string {
	t.Helper()
	return outsidetest.Build(t, "delivery-script", outsidetest.Spec{
		Root: outsidetest.RepoRoot(t), InPlace: true, Packages: []string{"./commands/commandstest/delivery"},
	}).Bin
}

// Exe is the delivery binary's path.
func Exe(t testing.TB) string { return filepath.Join(Bin(t), "delivery") }
