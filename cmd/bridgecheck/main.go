// Command bridgecheck reports code that is unsafe to run in-process under the cmdbridge
// adapter (see package bridgecheck). It runs standalone (`bridgecheck ./...`, saying so
// when no package was checked), as a vet tool (`go vet -vettool=$(which bridgecheck)
// ./...`, which also applies the suggested fixes with -fix), and writes the adapter's
// tier table (`bridgecheck -tiers FILE PATTERNS...`).
package main

import (
	"flag"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/cmdbridge/cmdbridge/bridgecheck"
)

func main() {
	args := os.Args[1:]
	if code, ok := tiersMain(args, os.Stdout, os.Stderr); ok {
		os.Exit(code)
	}
	if !driverMode(args) {
		os.Exit(checkMain(args, os.Stderr))
	}
	// go vet's protocol (-V=full, -flags, unit.cfg), help and the driver's own flags
	// (-fix, -diff, -json): multichecker, with -legacy and -native unprefixed.
	for _, name := range []string{"legacy", "native"} {
		f := bridgecheck.Scope.Flags.Lookup(name)
		flag.Var(f.Value, f.Name, f.Usage)
	}
	multichecker.Main(bridgecheck.Analyzers...)
}

// driverMode reports whether args are for the analysis driver rather than the
// standalone checker: a vet unit (.cfg), help, or a flag only the driver knows.
func driverMode(args []string) bool {
	if len(args) == 0 || args[0] == "help" {
		return true
	}
	if strings.HasSuffix(args[len(args)-1], ".cfg") {
		return true
	}
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name == "legacy" || name == "native" {
			continue
		}
		return true
	}
	return false
}
