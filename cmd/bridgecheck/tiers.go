package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cmdbridge/cmdbridge/bridgecheck"
)

// tiersMain handles `bridgecheck -tiers FILE [-legacy PATTERNS] PACKAGES...`: it writes
// the tier table of the commands in PACKAGES to FILE ("-" for stdout). ok is false when
// args do not start with -tiers, leaving them to the analyzer driver.
func tiersMain(args []string, stdout, stderr io.Writer) (code int, ok bool) {
	if len(args) == 0 || !(args[0] == "-tiers" || strings.HasPrefix(args[0], "-tiers=") ||
		args[0] == "--tiers" || strings.HasPrefix(args[0], "--tiers=")) {
		return 0, false
	}
	fs := flag.NewFlagSet("bridgecheck -tiers", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("tiers", "", "write the tier table to this file (- for stdout)")
	legacy := fs.String("legacy", "", "import path patterns of legacy command packages, replacing detection by registration")
	if err := fs.Parse(args); err != nil {
		return 2, true
	}
	if *out == "" || fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: bridgecheck -tiers FILE [-legacy PATTERNS] PACKAGES...")
		return 2, true
	}
	if err := bridgecheck.Scope.Flags.Set("legacy", *legacy); err != nil {
		fmt.Fprintf(stderr, "bridgecheck: -legacy: %v\n", err)
		return 2, true
	}
	t, err := bridgecheck.Tiers(".", fs.Args()...)
	if err != nil {
		fmt.Fprintf(stderr, "bridgecheck: %v\n", err)
		return 1, true
	}
	b, err := t.JSON()
	if err != nil {
		fmt.Fprintf(stderr, "bridgecheck: %v\n", err)
		return 1, true
	}
	if *out == "-" {
		_, err = stdout.Write(b)
	} else {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bridgecheck: %v\n", err)
		return 1, true
	}
	return 0, true
}
