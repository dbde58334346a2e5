// Package a registers a command that recovers panics.
package a

import (
	"context"
	"os"

	"github.com/urfave/cli/v2"
)

type Command struct {
	Name string
	New  func() *cli.App
	Main func(ctx context.Context)
}

var Commands = []Command{{Name: "a:recover", New: newApp, Main: run}}

func newApp() *cli.App { return &cli.App{Name: "a:recover"} }

func run(ctx context.Context) {
	defer func() {
		if v := recover(); v != nil { // want `\[recover\] recover\(\): swallows the adapter's exit signal`
			panic(v)
		}
	}()
	_ = newApp().RunContext(ctx, os.Args)
}

// guard is reached by no command: reported all the same, since something may call it.
func guard(f func()) {
	defer func() { _ = (recover()) }() // want `\[recover\]`
	f()
}

// notBuiltin is a function of our own named recover.
func notBuiltin() {
	recover := func() any { return nil }
	_ = recover()
}
