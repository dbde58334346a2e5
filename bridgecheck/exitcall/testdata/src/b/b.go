// Package b registers a command; its other file does not import urfave/cli.
package b

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

var Commands = []Command{{Name: "b:run", New: newApp, Main: func(context.Context) { quit(1) }}}

func newApp() *cli.App { return &cli.App{Name: "b:run"} }

// shadowed has a parameter named cli: a fix could not name the package here.
func shadowed(cli int) {
	os.Exit(cli) // want `\[os-exit\] os\.Exit`
}
