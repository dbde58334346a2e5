// Package good holds commands written the safe way: nothing here is reported.
package good

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"sync"

	"example.com/commands"
	"github.com/urfave/cli/v2"
)

func init() {
	commands.Register(commands.Command{Name: "good:fine", New: newFineApp, Main: fineMain})
}

// stdout is read when it is called, not bound at init.
var stdout = func() io.Writer { return os.Stdout }

// names is package-level but not a flag.
var names = []string{"json"}

// exiter is a type of our own with an Exit method, not os.Exit.
type exiter struct{}

func (exiter) Exit(code int) {}

func newFineApp() *cli.App {
	flags := []cli.Flag{&cli.BoolFlag{Name: names[0]}}
	return &cli.App{Name: "good:fine", Flags: flags, Action: fineAction}
}

func fineMain(ctx context.Context) {
	if err := newFineApp().RunContext(ctx, os.Args); err != nil {
		cli.OsExiter(1)
	}
}

func fineAction(c *cli.Context) error {
	logger := log.New(os.Stderr, "[good] ", 0) // made at call time from the swapped stream
	logger.Println("hello")
	log.Printf("through the standard logger, which the adapter swaps")
	fmt.Fprintln(stdout(), os.Getenv("HOME"))
	exiter{}.Exit(3)
	var wg sync.WaitGroup
	wg.Add(1)
	func() { defer wg.Done() }()
	wg.Wait()
	if c.App.Name == "" {
		_ = cli.ShowAppHelp(c)
		return cli.Exit("", 2)
	}
	return nil
}

// unused is reached by no command and no action: its goroutine runs for nobody.
func unused() {
	go func() {}()
}
