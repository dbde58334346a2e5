// Command bridgecheck reports code that is unsafe to run in-process under the cmdbridge
// adapter (see codegen/bridgecheck). It runs standalone (`bridgecheck ./...`), as a vet
// tool (`go vet -vettool=$(which bridgecheck) ./...`), and writes the adapter's tier
// table (`bridgecheck -tiers FILE PATTERNS...`).
package main

import (
	"os"

	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/cmdbridge/cmdbridge/codegen/bridgecheck"
)

func main() {
	if code, ok := tiersMain(os.Args[1:], os.Stdout, os.Stderr); ok {
		os.Exit(code)
	}
	singlechecker.Main(bridgecheck.Analyzer)
}
