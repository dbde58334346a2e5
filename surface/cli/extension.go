package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel/statedir"
)

// DevPackage is the package holding the developer commands (parity, scaffold): a program
// has them only when something it builds imports this package, so an adopter's binary
// links none of their tooling (testscript, go/packages, jennifer) unless asked.
const DevPackage = "github.com/cmdbridge/cmdbridge/surface/cli/devcli"

// DevTag is the build tag under which the adoption guide (docs/adopt.md) has an
// adopter's main package import DevPackage.
const DevTag = "cmdbridge_dev"

// devCommands are DevPackage's subcommands, named when a program lacking them is asked
// for one.
var devCommands = []string{"parity", "scaffold"}

// StatusPackage is the package holding the status command (the migration report): a
// program has it when its command line is handed it (DevPackage's Commands carry it too),
// so an adopter's bridge links none of the report's reading (parity/status: go/parser,
// html/template, txtar) unless asked.
const StatusPackage = "github.com/cmdbridge/cmdbridge/surface/cli/statuscmd"

// HostOf is the Host of the command line a subcommand of another package
// (Host.Subcommands) runs in: [Main] hands it down in the run's context.
func HostOf(c *ucli.Context) Host { return hostOf(c) }

// linked reports whether the developer command name is linked into host's command line.
func linked(host Host, name string) bool {
	return !host.Adopted && slices.ContainsFunc(host.Subcommands, func(cmd *ucli.Command) bool { return cmd.Name == name })
}

// SubprocessBinary is the program the subprocess lane runs for the command line c: --bin,
// else the host's Binary (or Program) — a path as given, a bare name next to this
// executable when there is such a file, else on $PATH. Empty when the host names none.
func SubprocessBinary(c *ucli.Context) string { return subprocessBinary(c) }

// ResultsFile is where parity writes its results and status reads them: the state
// directory of the repository at dir (kernel/statedir), so they never dirty the tree.
func ResultsFile(dir string) (string, error) {
	d, err := statedir.Find(dir, os.LookupEnv)
	if err != nil {
		return "", err
	}
	if _, err := statedir.Migrate(dir, d); err != nil {
		return "", err
	}
	return filepath.Join(d.Path(statedir.Parity), "last.json"), nil
}

// DevCommand is the command line that runs the developer command name for host: its own
// subcommand when the program links it, else the build of the program that has it
// (status names the one that runs parity).
func DevCommand(host Host, name string) string {
	if linked(host, name) {
		return host.Name + " " + name
	}
	return devRun(host, name)
}

// devRun is the command line that runs the developer command name in a build of this
// program that has it (the DevTag build of its main package).
func devRun(host Host, name string) string {
	return strings.Join(append(append([]string{"go run -tags " + DevTag + " ."}, host.Self...), name), " ")
}

// notLinked is the usage error for a developer command this program was built without:
// it says how to build one that has it. A program adopted with the light line (served
// by the cmdbridge host: Host.Adopted) gets it from a file beside its main under DevTag;
// a command line built on package host, from its Config's Subcommands.
func notLinked(host Host, name string) error {
	if name == "status" {
		return statusNotLinked(host)
	}
	if !slices.Contains(devCommands, name) {
		return nil
	}
	if !host.Adopted {
		return usageError("%s is a developer command, not linked into this program. To run it, add the developer "+
			"commands to the command line's subcommands: host.Config{Subcommands: devcli.Commands()} (import %q)", name, DevPackage)
	}
	run := devRun(host, name)
	return usageError("%s is a developer command, not linked into this program. To run it, add this file to "+
		"your main package (say cmdbridge_dev.go):\n\n\t//go:build %s\n\n\tpackage main\n\n\timport %q\n\n"+
		"\tfunc init() { devcli.Enable() }\n\nthen, in that package's directory: %s", name, DevTag, DevPackage, run)
}

// statusNotLinked is the usage error for status in a program built without it: it says
// which line adds it. The cmdbridge host gives the command line of a light-line program
// status; a host without it is answered as for a developer command.
func statusNotLinked(host Host) error {
	if host.Adopted {
		return usageError("status is not linked into the host serving this program (CMDBRIDGE_HOST): the cmdbridge host has it, "+
			"or add this file to your main package (say cmdbridge_dev.go):\n\n\t//go:build %s\n\n\tpackage main\n\n\timport %q\n\n"+
			"\tfunc init() { devcli.Enable() }\n\nthen, in that package's directory: %s", DevTag, DevPackage, devRun(host, "status"))
	}
	return usageError("status is not linked into this program. To run it, add it to the command line's subcommands: "+
		"host.Config{Subcommands: []*cli.Command{statuscmd.Command()}} (import %q), or devcli.Commands(), which has it with the developer commands", StatusPackage)
}
