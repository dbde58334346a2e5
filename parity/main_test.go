package parity_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain makes the test binary double as the echoer and quitter programs, which
// testscript puts on PATH under those names, and as the fixture's program fxprog, which
// the subprocess lane runs through a link of that name (fxBin).
func TestMain(m *testing.M) {
	testscript.Main(withFxBin{m}, map[string]func(){"echoer": echoerMain, "quitter": quitterMain, fxProgram: fxProgramMain})
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
