package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/cmdbridge/cmdbridge/bridgecheck"
)

// Exit statuses of the standalone checker.
const (
	exitOK       = 0
	exitFailed   = 1 // packages do not load or type-check, or the table cannot be written
	exitUsage    = 2 // a usage error, or nothing was checked
	exitFindings = 3
)

const usageHead = `usage: bridgecheck [-tiers FILE] [-legacy PATTERNS] [-native PATTERNS] PACKAGES...

Reports code that is unsafe to run in-process under the cmdbridge adapter, in the
packages of PACKAGES that build a urfave/cli program (package main with a *cli.App),
register or build commands, or hold native tools; flags may come in any position.
Exit status: 3 on findings, 2 on a usage error or when nothing was checked, 1 when
packages do not load, 0 otherwise.

Flags:
`

const usageTail = `
With any of these flags, or as a vet tool (go vet -vettool=$(command -v bridgecheck)
[flags] PACKAGES...), the analysis driver runs instead (-legacy and -native apply too):
  -fix        apply every suggested fix
  -diff       with -fix, print a unified diff instead of changing the files
  -json       emit JSON output
  -c N        show each finding's line with N lines of context
  -test=false leave test files out (the default analyses them)
  -V=full, -flags
              go vet's protocol
bridgecheck help describes each pass.
`

// standalone is the standalone checker: it parses flags in any position, then writes
// the tier table (-tiers) or prints each finding as file:line:col: message on stderr.
func standalone(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bridgecheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	for _, name := range []string{"legacy", "native"} {
		f := bridgecheck.Scope.Flags.Lookup(name)
		fs.Var(f.Value, f.Name, f.Usage)
	}
	tiers := fs.String("tiers", "", "write the tier table of the commands found to `FILE` (- for stdout) instead of reporting")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageHead)
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), usageTail)
	}
	var pkgs []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return exitOK
			}
			return exitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		pkgs, args = append(pkgs, fs.Arg(0)), fs.Args()[1:]
	}
	if len(pkgs) == 0 {
		fs.Usage()
		return exitUsage
	}
	if *tiers != "" {
		return writeTiers(*tiers, pkgs, stdout, stderr)
	}
	r, err := bridgecheck.Check(".", pkgs...)
	if err != nil {
		fmt.Fprintf(stderr, "bridgecheck: %v\n", err)
		return exitFailed
	}
	if err := r.Print(stderr, pkgs); err != nil {
		fmt.Fprintf(stderr, "bridgecheck: %v\n", err)
		return exitFailed
	}
	switch {
	case r.Nothing():
		return exitUsage
	case r.Diagnostics > 0:
		return exitFindings
	}
	return exitOK
}
