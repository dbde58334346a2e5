package bad

import (
	"context"
	"os"
	"time"

	"example.com/commands"
	"github.com/urfave/cli/v2"
)

func init() {
	commands.Register(commands.Command{Name: "bad:go", New: newGoApp, Main: func(ctx context.Context) { _ = newGoApp().RunContext(ctx, os.Args) }})
}

func newGoApp() *cli.App {
	app := &cli.App{
		Name: "bad:go",
		Action: func(c *cli.Context) error {
			go func() {}() // want `\[go-in-action\] go statement: a goroutine started by a command can outlive its in-process run`
			background()
			return nil
		},
		Before: before,
		Commands: []*cli.Command{{Name: "sub", Action: func(*cli.Context) error {
			go time.Sleep(time.Second) // want `\[go-in-action\] go statement`
			return nil
		}}},
	}
	app.After = after
	return app
}

func before(c *cli.Context) error {
	go func() {}() // want `\[go-in-action\] go statement`
	return nil
}

func after(c *cli.Context) error { return nil }

// background is reached from the action by a call.
func background() {
	go func() {}() // want `\[go-in-action\] go statement`
}
