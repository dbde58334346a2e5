package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cmdbridge/cmdbridge/bridgecheck"
)

// writeTiers writes the tier table of the commands in pkgs to file ("-" for stdout).
// A table with nothing in it is not written: it says so and fails.
func writeTiers(file string, pkgs []string, stdout, stderr io.Writer) int {
	t, err := bridgecheck.Tiers(".", pkgs...)
	if err != nil {
		fmt.Fprintf(stderr, "bridgecheck: %v\n", err)
		return exitFailed
	}
	if len(t.Commands) == 0 && len(t.Packages) == 0 {
		fmt.Fprintf(stderr, "bridgecheck: -tiers: %s holds no urfave/cli program, no package registering or building commands: no tier to write; pass your program's packages (./... in its module) or -legacy PATTERNS naming the packages whose code your commands run\n",
			strings.Join(pkgs, " "))
		return exitUsage
	}
	b, err := t.JSON()
	if err != nil {
		fmt.Fprintf(stderr, "bridgecheck: %v\n", err)
		return exitFailed
	}
	if file == "-" {
		_, err = stdout.Write(b)
	} else {
		err = os.WriteFile(file, b, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bridgecheck: %v\n", err)
		return exitFailed
	}
	return exitOK
}
