// Package a registers a command that starts goroutines from its action, its hooks and
// the helpers they reach.
package a

import (
	"context"
	"os"
	"sync"
	"time"

	"github.com/urfave/cli/v2"
)

type Command struct {
	Name string
	New  func() *cli.App
	Main func(ctx context.Context)
}

var Commands = []Command{{Name: "a:go", New: newApp, Main: func(ctx context.Context) { _ = newApp().RunContext(ctx, os.Args) }}}

func newApp() *cli.App {
	app := &cli.App{
		Name: "a:go",
		Action: func(c *cli.Context) error {
			go func() {}() // want `\[go-in-action\] go statement: a goroutine started by a command can outlive its in-process run`
			background()
			waited()
			return nil
		},
	}
	app.Action = later
	return app
}

// later is assigned to an Action field.
func later(c *cli.Context) error {
	go time.Sleep(time.Second) // want `\[go-in-action\] go statement`
	return nil
}

// background is reached from the action by a call.
func background() {
	go func() {}() // want `\[go-in-action\] go statement`
}

// waited finishes its work before returning, but the rule cannot tell: still reported.
func waited() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done() }() // want `\[go-in-action\] go statement`
	wg.Wait()
}

// unused is reached by no command and no action: its goroutine runs for nobody.
func unused() {
	go func() {}()
}
