package parity_test

import (
	"context"
	"flag"
	"os"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/all"
	"github.com/cmdbridge/cmdbridge/parity"
)

var update = flag.Bool("update", false, "rewrite the parity scripts' goldens (cmp and cmptree)")

// TestMain makes the test binary double as the delivery binary: testscript
// puts it on PATH under that name, for `exec delivery` and the subprocess lane.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"delivery": deliveryMain})
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
