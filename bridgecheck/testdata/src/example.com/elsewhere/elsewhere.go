// Package elsewhere registers a command though it is not below a commands/ folder:
// it is a legacy command package all the same.
package elsewhere

import (
	"context"
	"os"

	"example.com/commands"
	"github.com/urfave/cli/v2"
)

func init() {
	commands.Register(commands.Command{Name: "elsewhere:quit", New: newQuitApp, Main: func(ctx context.Context) {
		if err := newQuitApp().RunContext(ctx, os.Args); err != nil {
			os.Exit(1) // want `\[os-exit\] os\.Exit`
		}
	}})
}

func newQuitApp() *cli.App { return &cli.App{Name: "elsewhere:quit"} }
