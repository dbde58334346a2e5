// Package c registers a command that ends the process through another package's
// helpers.
package c

import (
	"context"
	"errors"
	"os"

	"example.com/util"
	"github.com/urfave/cli/v2"
)

type Command struct {
	Name string
	New  func() *cli.App
	Main func(ctx context.Context)
}

var Commands = []Command{{Name: "c:helped", New: newApp, Main: func(ctx context.Context) {
	util.Check(newApp().RunContext(ctx, os.Args)) // want `\[os-exit\] util\.Check \(which ends in os\.Exit\): ends the whole host process`
}}}

func newApp() *cli.App {
	return &cli.App{Name: "c:helped", Action: func(c *cli.Context) error {
		if err := util.Fine(); err != nil {
			util.Die("no") // want `\[os-exit\] util\.Die \(which ends in os\.Exit\)`
		}
		var l util.Logger
		l.Fail("no %d", 1) // want `\[os-exit\] \(util\.Logger\)\.Fail \(which ends in \(\*log\.Logger\)\.Fatalf\)`
		return errors.New("x")
	}}
}
