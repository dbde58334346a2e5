package devcli

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge"
	"github.com/cmdbridge/cmdbridge/host"
	"github.com/cmdbridge/cmdbridge/internal/adopted"
	"github.com/cmdbridge/cmdbridge/surface/cli/statuscmd"
)

// Commands are the developer commands, parity and scaffold, and the migration report
// that goes with them, status (package surface/cli/statuscmd), fresh, for a command line
// that should have them: host.Config.Subcommands (a tools binary of your own), which
// cli.Host embeds.
func Commands() []*ucli.Command {
	return []*ucli.Command{newParityCmd(nil), newScaffoldCmd(nil), statuscmd.Command()}
}

// Enable makes the light line (cmdbridge.Command) of this program serve in-process, as
// host.Command would, with the developer commands. A program adopted with the light
// line calls it from a file of its main package built only under the cmdbridge_dev tag
// (cli.DevTag; docs/adopt.md):
//
//	//go:build cmdbridge_dev
//
//	package main
//
//	import "github.com/cmdbridge/cmdbridge/surface/cli/devcli"
//
//	func init() { devcli.Enable() }
func Enable() {
	adopted.InProcess = func(ctx any, bridge string, cfg any) error {
		c := host.Config{Config: cfg.(cmdbridge.Config), Subcommands: Commands()}
		c.Name = bridge
		return host.Command(&c).Action(ctx.(*ucli.Context))
	}
}
