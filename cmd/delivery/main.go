// Command delivery is the legacy multi-call CLI: `delivery <command> [flags]`, or a symlink
// named after a command. See package commands.
package main

import (
	"context"
	"os"

	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/all"
)

func main() {
	os.Exit(commands.Dispatch(context.Background(), commands.Default, "delivery", os.Args, os.Stdout, os.Stderr))
}
