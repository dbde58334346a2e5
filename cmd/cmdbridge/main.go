// Command cmdbridge serves the delivery corpus as governed tools: the standalone entry
// point (host.Main) with the corpus's registries. It is also the host of programs
// adopted with the light line (cmdbridge.Command), which exec it as `cmdbridge
// __adopted PROGRAM BRIDGE …` (host.Adopted). Invoked under the name "delivery"
// (a symlink or a copy) it is the legacy multi-call CLI itself, so one binary can serve
// as the subprocess lane. `cmdbridge wrap PROGRAM …` serves any installed urfave/cli v2
// program instead, read from its help (host.WrapCommand).
package main

import (
	"context"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge"
	"github.com/cmdbridge/cmdbridge/commands"
	_ "github.com/cmdbridge/cmdbridge/commands/all"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/host"
	"github.com/cmdbridge/cmdbridge/nativetools"
	_ "github.com/cmdbridge/cmdbridge/nativetools/all"
	"github.com/cmdbridge/cmdbridge/surface/cli/conductor"
	"github.com/cmdbridge/cmdbridge/surface/cli/devcli"
	"github.com/cmdbridge/cmdbridge/surface/cli/statuscmd"
)

func main() {
	if filepath.Base(os.Args[0]) == "delivery" {
		os.Exit(commands.Dispatch(context.Background(), commands.Default, "delivery", os.Args, os.Stdout, os.Stderr))
	}
	os.Exit(host.Main(nil, &host.Config{
		Config: cmdbridge.Config{
			Pack: commands.Pack, Version: commands.Version, Binary: "delivery", WorkspaceEnv: "DELIVERY_WORKSPACE",
		},
		Commands: commands.Default, Native: nativetools.Default, Runtime: delivery.ToolRuntime,
		ScriptEnv: delivery.ScriptEnv, ScriptPassEnv: delivery.ScriptPassEnv, Initialisms: delivery.Initialisms,
		ScaffoldRegistry: "github.com/cmdbridge/cmdbridge/nativetools.Register", // the corpus's tools register through a function
		// wrap, the control plane, and parity, scaffold and status: the toolkit binary is
		// a developer tool.
		Subcommands: append([]*cli.Command{host.WrapCommand(hosted()), conductor.Command()}, devcli.Commands()...),
		// The bridge of a program adopted with the light line, which execs this host,
		// keeps the migration report.
		Hosted: []*cli.Command{statuscmd.Command()},
	}))
}

// hosted is the Config of wrap's command lines: the migration report, as an adopted
// program's has it.
func hosted() *host.Config {
	return &host.Config{Hosted: []*cli.Command{statuscmd.Command()}}
}
