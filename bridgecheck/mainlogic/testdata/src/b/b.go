// Command b sets host.Config.Prepare: main's logic is a note, not a finding.
package main

import (
	"os"

	"github.com/cmdbridge/cmdbridge/host"
	"github.com/urfave/cli/v2"
)

func main() {
	loadEnv()
	app := newApp()
	app.Commands = append(app.Commands, host.Command(&host.Config{
		New: newApp,
		Prepare: func(args []string) func(error) int {
			loadEnv()
			return func(err error) int { return 2 }
		},
	}))
	if err := app.Run(os.Args); err != nil {
		os.Exit(2)
	}
}

func loadEnv() {}

func newApp() *cli.App {
	return &cli.App{Name: "b", Action: func(*cli.Context) error { return nil }}
}
