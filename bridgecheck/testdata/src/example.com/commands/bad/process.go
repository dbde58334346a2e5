package bad

import (
	"context"
	"os"

	"example.com/commands"
	"github.com/urfave/cli/v2"
)

func init() {
	commands.Register(commands.Command{Name: "bad:process", New: newProcessApp, Main: processMain})
}

func newProcessApp() *cli.App { return &cli.App{Name: "bad:process", Action: processAction} }

func processMain(ctx context.Context) {
	defer func() {
		if v := recover(); v != nil { // want `\[recover\] recover\(\): swallows the adapter's exit signal`
			panic(v)
		}
	}()
	_ = newProcessApp().RunContext(ctx, os.Args)
}

func processAction(c *cli.Context) error {
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
	return nil
}
