package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// Exit statuses of the cmdbridge command line.
const (
	ExitOK     = 0
	ExitFailed = 1
	ExitUsage  = 2
)

// Host is what the binary plugs in: the command corpus, the native tools, and the clock
// and id source native handlers get (the corpus's deterministic runtime).
type Host struct {
	// Version is the version the MCP server reports (default "dev").
	Version string
	// Pack names the tool pack (kernel.Config.Pack): the manifest and GET /tools show it,
	// and a spelling may carry it as a prefix. Empty: none.
	Pack     string
	Commands *legacy.Registry
	Native   *native.Registry
	// Runtime builds a call's clock and id source from its environment (nil: wall clock
	// and random ids).
	Runtime func(lookup func(string) (string, bool)) (now func() time.Time, ids tool.IDSource)
}

// Main runs the cmdbridge command line on args and returns the exit status. stdout and
// stderr receive everything it prints. Zero fields of host default to the default
// registries.
func Main(args []string, stdout, stderr io.Writer, host Host) int {
	if host.Commands == nil {
		host.Commands = legacy.NewRegistry()
	}
	if host.Native == nil {
		host.Native = native.NewRegistry()
	}
	app := newApp(stdout, stderr)
	app.Metadata = map[string]any{hostKey: host}
	err := app.Run(intersperse(app, args))
	return exitStatus(err, stderr)
}

// version is Version, or "dev" when the host gave none.
func (h Host) version() string {
	if h.Version == "" {
		return "dev"
	}
	return h.Version
}

const hostKey = "cmdbridge.host"

func hostOf(c *ucli.Context) Host { return c.App.Metadata[hostKey].(Host) }

// exitStatus maps the error an app run returned to an exit status, printing it.
func exitStatus(err error, stderr io.Writer) int {
	if err == nil {
		return ExitOK
	}
	var ec ucli.ExitCoder
	if errors.As(err, &ec) {
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(stderr, "cmdbridge: "+msg)
		}
		return ec.ExitCode()
	}
	// urfave/cli returns plain errors for flag parsing problems: usage errors.
	fmt.Fprintln(stderr, "cmdbridge: "+err.Error())
	return ExitUsage
}

func usageError(format string, args ...any) error {
	return ucli.Exit(fmt.Sprintf(format, args...), ExitUsage)
}

func failed(format string, args ...any) error {
	return ucli.Exit(fmt.Sprintf(format, args...), ExitFailed)
}

// silentFailure ends a command with status 1 after it already printed its result.
var silentFailure = ucli.Exit("", ExitFailed)

func newApp(stdout, stderr io.Writer) *ucli.App {
	return &ucli.App{
		Name:            "cmdbridge",
		Usage:           "governed tools from legacy CLI commands",
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		ExitErrHandler:  func(*ucli.Context, error) {}, // Main maps errors to statuses itself
		Flags: []ucli.Flag{
			&ucli.StringFlag{Name: "workspace", Usage: "workspace directory (default: $DELIVERY_WORKSPACE or the current directory)"},
			&ucli.StringFlag{Name: "delivery-bin", Usage: "path of the delivery binary for the subprocess lane (default: next to cmdbridge, then $PATH)", EnvVars: []string{"CMDBRIDGE_DELIVERY_BIN"}},
		},
		OnUsageError: func(_ *ucli.Context, err error, _ bool) error {
			return usageError("%v", err)
		},
		Action: func(c *ucli.Context) error {
			if c.NArg() > 0 {
				return usageError("unknown command %q (run 'cmdbridge --help')", c.Args().First())
			}
			return ucli.ShowAppHelp(c)
		},
		Commands: append([]*ucli.Command{
			toolsCommand(),
			callCommand(),
			batchCommand(),
			evidenceCommand(),
			mcpCommand(),
		}, extraCommands()...),
	}
}

// extensions are subcommands that live in their own files (serve, token, parity, status,
// scaffold, the hidden sandbox runner); each registers its constructor from an init
// function, so adding one never edits this file.
var extensions []func() *ucli.Command

// register adds a subcommand constructor; call it from init.
func register(newCommand func() *ucli.Command) { extensions = append(extensions, newCommand) }

// extraCommands builds the registered subcommands sorted by name, so --help is stable
// whatever the init order.
func extraCommands() []*ucli.Command {
	out := make([]*ucli.Command, 0, len(extensions))
	for _, f := range extensions {
		out = append(out, f())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
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
		dir = os.Getenv("DELIVERY_WORKSPACE")
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

// deliveryBinary finds the delivery binary the subprocess lane runs.
func deliveryBinary(c *ucli.Context) string {
	if p := c.String("delivery-bin"); p != "" {
		return p
	}
	if exe, err := os.Executable(); err == nil {
		sibling := filepath.Join(filepath.Dir(exe), "delivery")
		if st, err := os.Stat(sibling); err == nil && !st.IsDir() {
			return sibling
		}
	}
	return "delivery"
}
