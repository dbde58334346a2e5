// Package bad holds one command per file, each doing what bridgecheck reports.
package bad

import (
	"context"
	"log"
	"os"

	"example.com/commands"
	"github.com/urfave/cli/v2"
)

func init() {
	commands.Register(commands.Command{Name: "bad:exit", New: newExitApp, Main: func(ctx context.Context) {
		if err := newExitApp().RunContext(ctx, os.Args); err != nil {
			os.Exit(1) // want `\[os-exit\] os\.Exit: ends the whole host process`
		}
	}})
}

func newExitApp() *cli.App {
	return &cli.App{Name: "bad:exit", Action: exitAction}
}

func exitAction(c *cli.Context) error {
	switch c.App.Name {
	case "fatal":
		log.Fatal("no") // want `\[log-fatal\] log\.Fatal: calls os\.Exit`
	case "fatalf":
		log.Fatalf("no %d", 1) // want `\[log-fatal\] log\.Fatalf`
	case "panic":
		log.Panicln("no") // want `\[log-panic\] log\.Panicln: panics`
	case "logger":
		l := log.New(c.App.ErrWriter, "", 0)
		l.Fatalf("no") // want `\[log-fatal\] \(\*log\.Logger\)\.Fatalf`
	case "help":
		cli.ShowAppHelpAndExit(c, 2) // want `\[show-and-exit\] cli\.ShowAppHelpAndExit: .*call os\.Exit directly`
	case "cmdhelp":
		cli.ShowCommandHelpAndExit(c, "x", 2) // want `\[show-and-exit\] cli\.ShowCommandHelpAndExit`
	}
	exit := os.Exit // want `\[os-exit\] os\.Exit`
	exit(4)
	return nil
}
