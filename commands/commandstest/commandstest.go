// Package commandstest gives tests the corpus's delivery binary as the script harnesses
// run it (the delivery directory below: cmd/delivery's main that also records its exit
// code where `exitcode N` reads it). It is a program of its own, not the test binary
// doubling as one: a test binary links the tests, testify and the toolkit, and starts
// about twice as slowly, which the suites that run the program thousands of times paid
// on every call.
package commandstest

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
)

// binEnv names the directory of a delivery binary this process or its parent built; a
// test binary's children (parity's shards) inherit it and build nothing.
const binEnv = "CMDBRIDGE_TEST_DELIVERY_BIN"

var mu sync.Mutex

// Bin returns the directory holding the delivery binary, for a PATH: built once per run
// (shared across test binaries like the outside modules, internal/outsidetest) and
// named by binEnv for this process's children.
func Bin(t testing.TB) string {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	if dir := os.Getenv(binEnv); dir != "" {
		return dir
	}
	m := outsidetest.Build(t, "delivery-script", outsidetest.Spec{
		Root: outsidetest.RepoRoot(t), InPlace: true, Packages: []string{"./commands/commandstest/delivery"},
	})
	if err := os.Setenv(binEnv, m.Bin); err != nil {
		t.Fatal(err)
	}
	return m.Bin
}

// Exe is the delivery binary's path.
func Exe(t testing.TB) string { return filepath.Join(Bin(t), "delivery") }
