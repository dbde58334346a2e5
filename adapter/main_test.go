package adapter

import (
	"context"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/cmdbridge/cmdbridge/adapter/internal/hazard"
)

// fixtureEnv makes the test binary act as the multi-call fixture binary (the real-process
// side of every comparison) instead of running tests.
const fixtureEnv = "CMDBRIDGE_ADAPTER_HAZARD_BINARY"

// binary is the multi-call fixture binary: this test binary, re-executed.
var binary string

func TestMain(m *testing.M) {
	if os.Getenv(fixtureEnv) == "1" {
		// A real program starts with a pristine flag.CommandLine; the test binary's has
		// the -test.* flags on it.
		flag.CommandLine = flag.NewFlagSet(os.Args[0], flag.ExitOnError)
		flag.CommandLine.Usage = func() { flag.Usage() }
		os.Exit(runHazard(context.Background(), os.Args[1:]))
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

// runHazard is the fixture binary's multi-call dispatch, as the subprocess lane invokes
// it (`binary <command> argv...`): the named hazard command's main runs on os.Args set
// to its name and argv, as in its own process.
func runHazard(ctx context.Context, words []string) int {
	if len(words) == 0 {
		fmt.Fprintln(os.Stderr, "usage: hazard <command> [argv...]")
		return 2
	}
	c, ok := hazard.Registry().Lookup(words[0])
	if !ok {
		fmt.Fprintf(os.Stderr, "unknown command %q\n", words[0])
		return 2
	}
	os.Args = words
	c.Main(ctx)
	return 0
}
