// Package helper registers no command: its exported functions are what commands call,
// so a go statement they reach is reported.
package helper

import "os"

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
