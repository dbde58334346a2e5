// Package helper registers no command but builds apps for the commands that do (App),
// like commands/convention: it is a legacy package, and since its exported functions
// are what commands call, a go statement they reach is reported.
package helper

import (
	"os"

	"github.com/urfave/cli/v2"
)

// App builds a command's app around its action.
func App(name string, action cli.ActionFunc) *cli.App {
	return &cli.App{Name: name, Action: action}
}

// Spawn starts work in the background.
func Spawn(f func()) {
	start(f)
}

func start(f func()) {
	go f() // want `\[go-in-action\] go statement`
}

// idle is reached by nothing exported.
func idle() {
	go func() {}()
}

// Cwd reads the working directory: reading is allowed in legacy code.
func Cwd() string {
	wd, _ := os.Getwd()
	return wd
}
