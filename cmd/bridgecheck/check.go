package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/cmdbridge/cmdbridge/bridgecheck"
)

// checkMain is the standalone checker: `bridgecheck [-legacy PATTERNS] [-native
// PATTERNS] PACKAGES...`. It prints each finding as file:line:col: message on stderr
// and exits 3 when there are findings, 1 when packages do not load, 2 on a usage error,
// 0 otherwise; when no package is a legacy command package or a native tool package it
// says so and exits 0.
func checkMain(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("bridgecheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	for _, name := range []string{"legacy", "native"} {
		f := bridgecheck.Scope.Flags.Lookup(name)
		fs.Var(f.Value, f.Name, f.Usage)
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: bridgecheck [-legacy PATTERNS] [-native PATTERNS] PACKAGES...")
		return 2
	}
	r, err := bridgecheck.Check(".", fs.Args()...)
	if err != nil {
		fmt.Fprintf(stderr, "bridgecheck: %v\n", err)
		return 1
	}
	if err := r.Print(stderr, fs.Args()); err != nil {
		fmt.Fprintf(stderr, "bridgecheck: %v\n", err)
		return 1
	}
	if r.Diagnostics > 0 {
		return 3
	}
	return 0
}
