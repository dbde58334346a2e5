package cli

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/internal/hostconfig"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// Host is what the binary plugs in: the adopter's configuration, embedded as written,
// and how this command line is wired to the process serving it (its name, how it is
// re-launched, how the subprocess lane runs the program). Nothing in it defaults to a
// corpus: a zero Host serves no tools.
type Host struct {
	// Config is the adopter's host.Config (package internal/hostconfig), where each
	// setting is declared once. Package host writes into it what it resolves: Commands
	// becomes the registry served (the adopter's Commands and the app's tree, tiers
	// applied), Version the app's when none is set, Binary the executable when the
	// program runs its own calls. The command line reads the tools (Commands, Native;
	// empty when nil), Version (what `version` and the MCP server report; default
	// "dev"), Pack, Binary (what the subprocess lane runs when --bin is not given: a
	// path, or a name looked up next to this executable and then on $PATH; empty:
	// Program), WorkspaceEnv (default CMDBRIDGE_WORKSPACE), Runtime, ScriptEnv and
	// ScriptPassEnv (parity), Initialisms and ScaffoldRegistry (scaffold), and
	// Subcommands; the other settings are package host's, applied before the registry
	// gets here.
	hostconfig.Config
	// Name is the command line's name in help and messages (default "cmdbridge"; an
	// adopter's bridge subcommand says "gizmo bridge"). It is not the embedded
	// Config.Name, the adopter's name of the bridge subcommand ("bridge"), which this
	// command line never reads: Host.Name hides it.
	Name string
	// Executable is the program that re-launches this command line (mcp enable's host
	// entry, the sandbox runner), with Self after it. Empty: this executable. A program
	// adopted with the light line (cmdbridge.Command) execs the cmdbridge host, which
	// names the program here, so what it writes launches the program, not the host.
	Executable string
	// Adopted says this command line serves a program adopted with the light line
	// (cmdbridge.Command) from the cmdbridge host: the developer commands, which work on
	// the program's own Go (its native handlers), are not offered, and asking for one
	// says how to build the program with them (DevTag), which serves in-process.
	Adopted bool
	// Self are the argv words after this executable that reach this command line (nil
	// for a standalone binary; ["bridge"] for a subcommand): `mcp enable` and the
	// sandbox runner re-launch the executable with them.
	Self []string
	// SelfPaths are the indexes of the Self words that name files (`wrap PROGRAM`'s
	// program, its --effects file): a project-scope host configuration, which every clone
	// shares, names them in the host's own terms, as it names this executable.
	SelfPaths []int
	// ServerName is the name the MCP server reports (default: the first word of Name;
	// `cmdbridge wrap dbkit` reports "dbkit", the program whose tools it serves).
	ServerName string
	// Program is the name the program is run as (the corpus's "delivery", gizmo): a
	// bare Binary is looked up under it, and parity scripts call it by that name.
	Program string
	// Environ is the environment the subprocess lane's children start from (nil: this
	// process's; adapter.Config.Environ).
	Environ []string
	// Prefix are argv words the subprocess lane writes between Binary and the command.
	Prefix []string
	// SuperviseParity runs `parity` in a child process of this executable (same
	// os.Args), so that a command ending the process on an in-process lane is reported
	// as an error rather than ending the run silently (parity.Supervise). Set it when
	// os.Args is this command line (a program's main); tests that call Main leave it off.
	SuperviseParity bool
}

// Main runs the cmdbridge command line on args and returns the exit status. stdout and
// stderr receive everything it prints. It is where an error becomes an exit status.
func Main(args []string, stdout, stderr io.Writer, host Host) int {
	f := newFactory(host, stdout, stderr)
	app := newApp(f)
	err := app.RunContext(f.withContext(context.Background()), intersperse(app, args))
	return exitStatus(app.Name, err, stderr)
}

// App is the urfave/cli app Main runs for host, not yet run: its command tree and flags,
// for checks of what the documentation spells (internal/doccheck).
func App(host Host, stdout, stderr io.Writer) *ucli.App {
	return newApp(newFactory(host, stdout, stderr))
}

// withDefaults is h with the defaults of its empty fields: empty registries, the name
// "cmdbridge", the workspace variable CMDBRIDGE_WORKSPACE.
func (h Host) withDefaults() Host {
	if h.Commands == nil {
		h.Commands = legacy.NewRegistry()
	}
	if h.Native == nil {
		h.Native = native.NewRegistry()
	}
	if h.Name == "" {
		h.Name = "cmdbridge"
	}
	if h.WorkspaceEnv == "" {
		h.WorkspaceEnv = "CMDBRIDGE_WORKSPACE"
	}
	return h
}

// version is Version, or "dev" when the host gave none.
func (h Host) version() string {
	if h.Version == "" {
		return "dev"
	}
	return h.Version
}

// serverName is the name the MCP server reports: ServerName, else the program serving
// ("gizmo" for "gizmo bridge", "cmdbridge" standalone).
func (h Host) serverName() string {
	if h.ServerName != "" {
		return h.ServerName
	}
	return strings.Fields(h.Name + " cmdbridge")[0]
}

// newApp is the command line of f: its global flags, its subcommands (markActions
// marks what their actions return) and the root's answer to an unknown command.
func newApp(f *factory) *ucli.App {
	host := f.Host
	app := &ucli.App{
		Name:            host.Name,
		Usage:           "governed tools from legacy CLI commands",
		Writer:          f.IO.Out,
		ErrWriter:       f.IO.ErrOut,
		HideHelpCommand: true,
		Version:         versionString(host),
		ExitErrHandler:  func(*ucli.Context, error) {}, // Main maps errors to statuses itself
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "workspace", Usage: "workspace directory (default: $" + host.WorkspaceEnv + " or the current directory)"},
			&ucli.StringFlag{Name: "bin", Usage: "the program the subprocess lane runs (default: " + defaultBinary(host) + ")", EnvVars: []string{"CMDBRIDGE_BIN"}},
		},
		OnUsageError: func(_ *ucli.Context, err error, _ bool) error {
			return usageError("%v", err)
		},
		Action: func(c *ucli.Context) error {
			if c.NArg() > 0 {
				if err := notLinked(host, c.Args().First()); err != nil {
					return err
				}
				var names []string
				for _, cmd := range c.App.VisibleCommands() {
					names = append(names, cmd.Names()...)
				}
				return usageError("unknown command %q%s (run '%s --help')", c.Args().First(), tool.DidYouMean(c.Args().First(), names), host.Name)
			}
			return ucli.ShowAppHelp(c)
		},
		Commands: commands(f),
	}
	markActions(app.Commands)
	return app
}

// commands are the subcommands of f's command line: the tools' own first, then the
// others sorted by name (with status, StatusPackage's, and the developer commands of
// DevPackage when the program was built with them), then the rest of the host's
// Subcommands (cmdbridge's wrap). A host serving a program adopted with the light line
// (Host.Adopted) leaves the developer commands out, since they need the program's own Go.
func commands(f *factory) []*ucli.Command {
	out := []*ucli.Command{
		newToolsCmd(f),
		newCallCmd(f, nil),
		newBatchCmd(f, nil),
		newEvidenceCmd(f),
		newMCPCmd(f, nil),
		newVersionCmd(f, nil),
	}
	more := []*ucli.Command{
		newEnrollCmd(f, nil),
		newServeCmd(f, nil),
		newTokenCmd(f),
		newSandboxRunCmd(f, nil),
	}
	var extra []*ucli.Command
	for _, cmd := range f.Host.Subcommands {
		cmd = cloneCommand(cmd) // markActions changes this app's copy, never the host's
		switch {
		case cmd.Name == "status": // the report (StatusPackage), listed where it always was
			more = append(more, cmd)
		case !slices.Contains(devCommands, cmd.Name):
			extra = append(extra, cmd)
		case !f.Host.Adopted:
			more = append(more, cmd) // sorted with the others, as --help always listed them
		}
	}
	sort.Slice(more, func(i, j int) bool { return more[i].Name < more[j].Name })
	return slices.Concat(out, more, extra)
}

// cloneCommand is a copy of cmd and of its subcommands.
func cloneCommand(cmd *ucli.Command) *ucli.Command {
	c := *cmd
	c.Subcommands = make([]*ucli.Command, len(cmd.Subcommands))
	for i, sub := range cmd.Subcommands {
		c.Subcommands[i] = cloneCommand(sub)
	}
	if cmd.Subcommands == nil {
		c.Subcommands = nil
	}
	return &c
}

// printJSON writes v as indented JSON with a trailing newline.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// workspaceDir is the directory calls run in.
func workspaceDir(c *ucli.Context) (string, error) {
	dir := c.String("workspace")
	if dir == "" {
		dir = os.Getenv(hostOf(c).WorkspaceEnv)
	}
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		dir = wd
	}
	return filepath.Abs(dir)
}

// defaultBinary describes, for --help, the program the subprocess lane runs when --bin
// is not given.
func defaultBinary(h Host) string {
	switch {
	case h.Binary != "" && filepath.IsAbs(h.Binary):
		return h.Binary
	case h.Binary != "":
		return h.Binary + " next to this executable, then on $PATH"
	case h.Program != "":
		return h.Program + " next to this executable, then on $PATH"
	}
	return "none"
}

// subprocessBinary is the program the subprocess lane runs: --bin, else the host's
// Binary (or Program) — a path as given, a bare name next to this executable when
// there is such a file, else on $PATH. Empty when the host names none.
func subprocessBinary(c *ucli.Context) string {
	if p := c.String("bin"); p != "" {
		return p
	}
	h := hostOf(c)
	name := h.Binary
	if name == "" {
		name = h.Program
	}
	if name == "" || strings.ContainsRune(name, filepath.Separator) {
		return name
	}
	if exe, err := os.Executable(); err == nil {
		sibling := filepath.Join(filepath.Dir(exe), name)
		if st, err := os.Stat(sibling); err == nil && !st.IsDir() {
			return sibling
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	return name
}
