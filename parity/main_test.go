package parity_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	_ "github.com/cmdbridge/cmdbridge/commands/all"
	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
)

// TestMain makes the test binary double as the echoer and quitter programs:
// testscript puts it on PATH under those names. The delivery binary the suite
// runs is a program of its own (commandstest), built into a directory that ends with the
// test binary (outsidetest.M).
func TestMain(m *testing.M) {
	testscript.Main(outsidetest.M(m), map[string]func(){"echoer": echoerMain, "quitter": quitterMain})
}

// echoerMain runs the plain test program newEchoer as a process, as its own main would.
func echoerMain() {
	if err := newEchoer().Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// quitterMain runs newQuitter as a process.
func quitterMain() {
	if err := newQuitter().Run(os.Args); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}
