// Package helper registers no command but builds apps for commands that do: its
// exported functions are what commands call.
package helper

import "github.com/urfave/cli/v2"

// App builds a command's app around its action.
func App(name string, action cli.ActionFunc) *cli.App {
	return &cli.App{Name: name, Action: action}
}

// Spawn starts work in the background.
func Spawn(f func()) { start(f) }

func start(f func()) {
	go f() // want `\[go-in-action\] go statement`
}

// idle is reached by nothing exported.
func idle() {
	go func() {}()
}
