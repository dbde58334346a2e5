// Package tiered checks how findings are charged to commands: each command owns the
// code its New and Main reach; a finding no command reaches counts against all.
package tiered

import (
	"context"
	"os"

	"example.com/commands"
	"github.com/urfave/cli/v2"
)

var registry = []commands.Command{
	{Name: "tiered:safe", New: newSafeApp, Main: func(ctx context.Context) { run(ctx, newSafeApp()) }},
	{Name: "tiered:exit", New: newExitApp, Main: func(ctx context.Context) { run(ctx, newExitApp()) }},
	{Name: "tiered:helped", New: newHelpedApp, Main: func(ctx context.Context) {
		run(ctx, newHelpedApp())
		_ = os.Setenv("X", "1") // want `\[setenv\]`
	}},
}

func init() {
	for _, c := range registry {
		commands.Register(c)
	}
}

func run(ctx context.Context, app *cli.App) {
	if err := app.RunContext(ctx, os.Args); err != nil {
		cli.OsExiter(1)
	}
}

func newSafeApp() *cli.App { return &cli.App{Name: "tiered:safe"} }

func newExitApp() *cli.App {
	return &cli.App{Name: "tiered:exit", Action: func(*cli.Context) error {
		os.Exit(1) // want `\[os-exit\]`
		return nil
	}}
}

type guard struct{}

func (guard) protect(f func()) {
	defer func() { _ = recover() }() // want `\[recover\]`
	f()
}

func newHelpedApp() *cli.App {
	return &cli.App{Name: "tiered:helped", Action: func(*cli.Context) error {
		var g guard
		g.protect(func() {})
		return nil
	}}
}

// orphan is reached by no command: its finding counts against every command of the
// package, since something may still call it.
func orphan() { _ = os.Chdir("/") } // want `\[chdir\]`
