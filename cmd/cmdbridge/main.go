// Command cmdbridge lists, describes and calls governed tools over the delivery corpus;
// see package surface/cli.
package main

import (
	"os"

	_ "github.com/cmdbridge/cmdbridge/commands/all"
	"github.com/cmdbridge/cmdbridge/delivery"
	_ "github.com/cmdbridge/cmdbridge/nativetools/all"
	"github.com/cmdbridge/cmdbridge/surface/cli"
)

func main() {
	os.Exit(cli.Main(os.Args, os.Stdout, os.Stderr, cli.Host{Runtime: delivery.ToolRuntime}))
}
