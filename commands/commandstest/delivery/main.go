// Command delivery is cmd/delivery as the script harnesses run it: the same dispatch,
// and the exit code recorded in $CMDBRIDGE_TEST_EXIT_FILE (parity.ExitFileVar, spelled
// out: importing parity would link its test machinery in) for `exitcode N` — "?" first,
// so a run that dies some other way says so.
package main

import (
	"context"
	"os"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/all"
)

func main() {
	record := func(code string) {
		if f := os.Getenv("CMDBRIDGE_TEST_EXIT_FILE"); f != "" {
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
