// Package host is a minimal stand-in: only Config and Command.
package host

import "github.com/urfave/cli/v2"

type Config struct {
	New     func() *cli.App
	Prepare func(args []string) func(error) int
}

func Command(*Config) *cli.Command { return nil }
