// Package a registers commands that end the process in every way exitcall reports.
package a

import (
	"context"
	"log"
	"os"

	"github.com/urfave/cli/v2"
)

type Command struct {
	Name string
	New  func() *cli.App
	Main func(ctx context.Context)
}

var Commands = []Command{
	{Name: "a:exit", New: newApp, Main: func(ctx context.Context) {
		if err := newApp().RunContext(ctx, os.Args); err != nil {
			os.Exit(1) // want `\[os-exit\] os\.Exit: ends the whole host process`
		}
	}},
}

func newApp() *cli.App { return &cli.App{Name: "a:exit", Action: action} }

// action is a func(*cli.Context) error: an exit becomes a returned cli.Exit.
func action(c *cli.Context) error {
	switch c.App.Name {
	case "exit":
		os.Exit(3) // want `\[os-exit\] os\.Exit`
	case "fatal":
		log.Fatalf("no %d", 1) // want `\[log-fatal\] log\.Fatalf: calls os\.Exit`
	case "logger":
		l := log.New(os.Stderr, "", 0)
		l.Fatal("no") // want `\[log-fatal\] \(\*log\.Logger\)\.Fatal`
	case "panic":
		log.Panicln("no") // want `\[log-panic\] log\.Panicln: panics`
	case "help":
		cli.ShowAppHelpAndExit(c, 2) // want `\[show-and-exit\] cli\.ShowAppHelpAndExit: .*call os\.Exit directly`
	case "cmdhelp":
		cli.ShowCommandHelpAndExit(c, "x", 2) // want `\[show-and-exit\] cli\.ShowCommandHelpAndExit`
	}
	exit := os.Exit // want `\[os-exit\] os\.Exit`
	exit(4)
	if err := other(); err != nil {
		log.Fatalln(err) // want `\[log-fatal\] log\.Fatalln`
	}
	return nil
}

// other returns an error but is not an action: its caller decides what an error
// means, so exits go through cli.OsExiter.
func other() error {
	os.Exit(5)      // want `\[os-exit\] os\.Exit`
	log.Fatal("no") // want `\[log-fatal\] log\.Fatal`
	return nil
}

func init() {
	// An exit inside an expression has no statement to replace: only os.Exit's own
	// reference changes.
	defer os.Exit(6)  // want `\[os-exit\] os\.Exit`
	go log.Fatal("x") // want `\[log-fatal\] log\.Fatal`
}
