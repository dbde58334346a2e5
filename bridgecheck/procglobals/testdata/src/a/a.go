// Package a registers a command that keeps state at package level and changes the
// host process.
package a

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"

	"github.com/urfave/cli/v2"
)

type Command struct {
	Name string
	New  func() *cli.App
	Main func(ctx context.Context)
}

var Commands = []Command{{Name: "a:globals", New: func() *cli.App { return sharedApp }, Main: run}}

var sharedApp = &cli.App{Name: "a:globals", Flags: sharedFlags, Action: action} // want `\[global-app\] var sharedApp \*cli\.App: an app kept at package level carries the flag values`

var sharedFlags = []cli.Flag{jsonFlag} // want `\[global-flags\] var sharedFlags \[\]cli\.Flag: flags kept at package level keep their parsed values`

var jsonFlag = &cli.BoolFlag{Name: "json"} // want `\[global-flags\] var jsonFlag \*cli\.BoolFlag`

var valueFlag cli.StringSliceFlag // want `\[global-flags\] var valueFlag cli\.StringSliceFlag`

var plainApp cli.App // want `\[global-app\] var plainApp cli\.App`

var logger = log.New(os.Stderr, "[a] ", 0) // want `\[global-stream\] var logger \(bound to os\.Stderr\): captures the host's`

var jsonLog = slog.New(slog.NewJSONHandler(os.Stdout, nil)) // want `\[global-stream\] var jsonLog \(bound to os\.Stdout\)`

// stdout reads the stream when it is called: safe.
var stdout = func() io.Writer { return os.Stdout }

// names is package-level but not a flag.
var names = []string{"json"}

var out io.Writer

var (
	x, y = os.Stdout, 1 // want `\[global-stream\] var x \(bound to os\.Stdout\)`
)

func init() {
	out = os.Stderr // want `\[global-stream\] var out \(bound to os\.Stderr in init\)`
	later := func() { out = os.Stdout }
	_ = later
}

func run(ctx context.Context) {
	_ = sharedApp.RunContext(ctx, os.Args)
	_, _, _ = plainApp, valueFlag, names
	local := os.Stderr // inside a function: read at call time
	_ = local
}

func action(c *cli.Context) error {
	logger.Println("hello")
	jsonLog.Info("hello")
	fmt.Fprintln(out, "hello", x, y, stdout())
	if err := os.Chdir("/tmp"); err != nil { // want `\[chdir\] os\.Chdir: changes the working directory of the whole host process`
		return err
	}
	f, err := os.Open(".")
	if err != nil {
		return err
	}
	defer f.Close()
	_ = f.Chdir()           // want `\[chdir\] \(\*os\.File\)\.Chdir`
	_ = os.Setenv("A", "1") // want `\[setenv\] os\.Setenv: changes the environment of the whole host process`
	_ = os.Unsetenv("A")    // want `\[setenv\] os\.Unsetenv`
	os.Clearenv()           // want `\[setenv\] os\.Clearenv`
	_ = os.Getenv("A")      // reading is fine
	return nil
}
