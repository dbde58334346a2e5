package adapter

import (
	"context"
	"flag"
	"os"
	"testing"

	"github.com/cmdbridge/cmdbridge/adapter/internal/hazard"
	"github.com/cmdbridge/cmdbridge/commands"
)

// fixtureEnv makes the test binary act as the multi-call fixture binary (the real-process
// side of every comparison) instead of running tests.
const fixtureEnv = "CMDBRIDGE_ADAPTER_HAZARD_BINARY"

// binary is the multi-call fixture binary: this test binary, re-executed.
var binary string

func TestMain(m *testing.M) {
	if os.Getenv(fixtureEnv) == "1" {
		// A real delivery binary starts with a pristine flag.CommandLine; the test
		// binary's has the -test.* flags on it.
		flag.CommandLine = flag.NewFlagSet(os.Args[0], flag.ExitOnError)
		flag.CommandLine.Usage = func() { flag.Usage() }
		os.Exit(commands.Dispatch(context.Background(), hazard.Registry(), "delivery", os.Args, os.Stdout, os.Stderr))
	}
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	binary = exe
	// Inherited by every subprocess the tests start. Under -race a child would also sleep
	// a second at exit waiting for late races; the children are the subject, not the
	// code under test, so skip that.
	if err := os.Setenv(fixtureEnv, "1"); err != nil {
		panic(err)
	}
	if os.Getenv("GORACE") == "" {
		_ = os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	os.Exit(m.Run())
}
