package bad

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"

	"example.com/commands"
	"github.com/urfave/cli/v2"
)

func init() {
	commands.Register(commands.Command{Name: "bad:globals", New: func() *cli.App { return sharedApp }, Main: globalsMain})
}

var sharedApp = &cli.App{Name: "bad:globals", Flags: sharedFlags, Action: globalsAction} // want `\[global-app\] var sharedApp \*cli\.App: an app kept at package level carries the flag values`

var sharedFlags = []cli.Flag{jsonFlag} // want `\[global-flags\] var sharedFlags \[\]cli\.Flag: flags kept at package level keep their parsed values`

var jsonFlag = &cli.BoolFlag{Name: "json"} // want `\[global-flags\] var jsonFlag \*cli\.BoolFlag`

var valueFlag cli.StringSliceFlag // want `\[global-flags\] var valueFlag cli\.StringSliceFlag`

var plainApp cli.App // want `\[global-app\] var plainApp cli\.App`

var logger = log.New(os.Stderr, "[bad] ", 0) // want `\[global-stream\] var logger \(bound to os\.Stderr\): captures the host's`

var jsonLog = slog.New(slog.NewJSONHandler(os.Stdout, nil)) // want `\[global-stream\] var jsonLog \(bound to os\.Stdout\)`

var out io.Writer

var (
	a, b = os.Stdout, 1 // want `\[global-stream\] var a \(bound to os\.Stdout\)`
)

func init() {
	out = os.Stderr // want `\[global-stream\] var out \(bound to os\.Stderr in init\)`
}

func globalsMain(ctx context.Context) {
	_ = sharedApp.RunContext(ctx, os.Args)
	_ = plainApp
	_ = valueFlag
}

func globalsAction(c *cli.Context) error {
	logger.Println("hello")
	jsonLog.Info("hello")
	fmt.Fprintln(out, "hello", a, b)
	return nil
}
