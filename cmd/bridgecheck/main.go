// Command bridgecheck reports code that is unsafe to run in-process under the cmdbridge
// adapter (see package bridgecheck). It runs standalone (`bridgecheck ./...`, flags in
// any position, exiting 2 with what to pass when it checked nothing), writes the
// adapter's tier table (`bridgecheck -tiers FILE ./...`), and runs as the analysis
// driver with go vet's protocol (`go vet -vettool=$(command -v bridgecheck) ./...`) or
// with a driver flag such as -fix. `bridgecheck -h` lists every flag.
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
	if !driverMode(args) {
		os.Exit(standalone(args, os.Stdout, os.Stderr))
	}
	// go vet's protocol (-V=full, -flags, unit.cfg), help and the driver's own flags
	// (-fix, -diff, -json): multichecker, with -legacy and -native unprefixed.
	for _, name := range []string{"legacy", "native"} {
		f := bridgecheck.Scope.Flags.Lookup(name)
		flag.Var(f.Value, f.Name, f.Usage)
	}
	multichecker.Main(bridgecheck.Analyzers...)
}

// standaloneFlags are the flags of the standalone checker; any other flag hands the
// arguments to the analysis driver.
var standaloneFlags = map[string]bool{"legacy": true, "native": true, "tiers": true, "h": true, "help": true}

// driverMode reports whether args are for the analysis driver rather than the
// standalone checker: a vet unit (.cfg), `help`, or a flag only the driver knows.
func driverMode(args []string) bool {
	if len(args) > 0 && args[0] == "help" {
		return true
	}
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") {
		return true
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || standaloneFlags[name] {
			continue
		}
		return true
	}
	return false
}
