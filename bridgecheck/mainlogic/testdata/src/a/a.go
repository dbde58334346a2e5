// Command a does things around app.Run that the in-process lane skips.
package main

import (
	"os"

	"github.com/urfave/cli/v2"
)

func main() {
	loadEnv()             // want `\[main-logic\] loadEnv\(\): main\(\) runs it around app.Run`
	app := newApp()       // building the app
	app.Name = "a"        // still building it
	if len(os.Args) > 3 { // want `\[main-logic\] if len\(os.Args\) > 3`
		os.Args = os.Args[:3]
	}
	if err := app.Run(os.Args); err != nil {
		println("Error:", err.Error()) // want `\[main-logic\] println\("Error:", err.Error\(\)\)`
		os.Exit(2)                     // want `\[main-logic\] os.Exit\(2\)`
	}
}

func loadEnv() { _ = os.Setenv("A", "1") }

func newApp() *cli.App {
	return &cli.App{Name: "a", Commands: []*cli.Command{{Name: "x", Action: func(*cli.Context) error {
		return nil
	}}}}
}
