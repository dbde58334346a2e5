package parity_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/all"
	"github.com/cmdbridge/cmdbridge/parity"
)

// TestMain makes the test binary double as the delivery binary and as the
// echoer program: testscript puts it on PATH under those names, for `exec
// delivery` and the subprocess lane.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"delivery": deliveryMain, "echoer": echoerMain, "quitter": quitterMain})
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

// deliveryMain records its exit code where `exitcode N` reads it.
func deliveryMain() {
	record := func(code string) {
		if f := os.Getenv(parity.ExitFileVar); f != "" {
			_ = os.WriteFile(f, []byte(code), 0o644)
		}
	}
	record("?")
	cli.OsExiter = func(code int) {
		record(strconv.Itoa(code))
		os.Exit(code)
	}
	code := commands.Dispatch(context.Background(), commands.Default, "delivery", os.Args, os.Stdout, os.Stderr)
	record(strconv.Itoa(code))
	os.Exit(code)
}
