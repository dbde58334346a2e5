// Package selfapp runs its own urfave/cli app (a program like cmdbridge's own CLI): it
// registers no command and hands no app to registrations, so nothing is reported.
package selfapp

import (
	"os"

	"github.com/urfave/cli/v2"
)

func newApp() *cli.App {
	return &cli.App{Name: "self", Action: func(*cli.Context) error {
		go func() {}()
		return nil
	}}
}

// Main runs the app and exits with its status.
func Main() {
	if err := newApp().RunContext(nil, os.Args); err != nil {
		os.Exit(1)
	}
}
