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
		Root: moduleRoot(t), InPlace: true, Packages: []string{"./commands/commandstest/delivery"},
	})
	if err := os.Setenv(binEnv, m.Bin); err != nil {
		t.Fatal(err)
	}
	return m.Bin
}

// Exe is the delivery binary's path.
func Exe(t testing.TB) string { return filepath.Join(Bin(t), "delivery") }

// moduleRoot is the nearest directory above the working directory (a test's package
// directory) that holds a go.mod.
func moduleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("commandstest: no go.mod above the working directory")
		}
		dir = up
	}
}
