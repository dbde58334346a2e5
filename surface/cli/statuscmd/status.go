package statuscmd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/statedir"
	"github.com/cmdbridge/cmdbridge/parity/status"
	"github.com/cmdbridge/cmdbridge/surface/cli"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Command reports the migration status of every tool the command line serves: its
// route, parity, golden coverage, bridgecheck tier and last parity run (parity/status).
func Command() *ucli.Command { return newStatusCmd(nil) }

type statusReportOptions struct {
	Stdout, Stderr io.Writer
	Host           cli.Host
	// Config reads what the report is built from (statusConfig).
	Config func() (status.Config, error)

	JSON bool
	HTML string // write the page to this file
}

// newStatusCmd reports the migration status of every tool (parity/status).
func newStatusCmd(runF func(*statusReportOptions) error) *ucli.Command {
	opts := &statusReportOptions{}
	return &ucli.Command{
		Name:  "status",
		Usage: "migration status per tool: route, parity, golden coverage, bridgecheck tier, last parity run",
		Description: "Reads the route table, the parity results file written by 'cmdbridge parity' and the\n" +
			"scripts under testdata/script/ of the repository. Prints an aligned table and totals, or\n" +
			"the JSON report with --json; --html writes a self-contained page instead (with --json, both).",
		Flags: []ucli.Flag{
			&ucli.BoolFlag{Name: "json", Usage: "print the JSON report instead of the table", Destination: &opts.JSON},
			&ucli.StringFlag{Name: "html", Usage: "write the report as one self-contained HTML page to `FILE` (and print no table)", Destination: &opts.HTML},
			&ucli.StringFlag{Name: "results", Usage: "parity results `FILE` (default: parity/last.json in the state directory of <dir>)"},
			&ucli.StringFlag{Name: "dir", Usage: "repository `DIR` holding testdata/script (default: the current directory)"},
			&ucli.StringFlag{Name: "workspace", Usage: "also report the shadow runs recorded in the evidence of the served workspace `WS`, and which tools its shadow_promotion rule (config.yaml; default 200 matches, 0 mismatches) says to route native"},
		},
		Action: func(c *ucli.Context) error {
			if c.NArg() > 0 {
				return cli.UsageErrorf("status takes no arguments")
			}
			opts.Stdout, opts.Stderr, opts.Host = c.App.Writer, c.App.ErrWriter, cli.HostOf(c)
			opts.Config = func() (status.Config, error) { return statusConfig(c) }
			if runF != nil {
				return runF(opts)
			}
			return runStatus(opts)
		},
	}
}

func runStatus(opts *statusReportOptions) error {
	so, err := opts.Config()
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	rep, err := status.Build(so)
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	if opts.HTML != "" {
		var page bytes.Buffer
		if err := status.WriteHTML(&page, rep); err != nil {
			return fmt.Errorf("status: %w", err)
		}
		if err := os.WriteFile(opts.HTML, page.Bytes(), 0o644); err != nil {
			return fmt.Errorf("status: %w", err)
		}
		fmt.Fprintf(opts.Stderr, "%s: status page written to %s\n", opts.Host.Name, opts.HTML)
		if !opts.JSON {
			return nil
		}
	}
	if opts.JSON {
		return status.WriteJSON(opts.Stdout, rep)
	}
	return status.WriteText(opts.Stdout, rep)
}

// statusConfig collects the tools with their routes from a kernel built over the host's
// registries. The kernel gets a scratch workspace and evidence directory, so asking for
// the status never writes into the repository; workspace route overrides do not apply,
// the report shows the committed route table.
func statusConfig(c *ucli.Context) (status.Config, error) {
	dir := c.String("dir")
	if dir == "" {
		dir = "."
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return status.Config{}, err
	}
	results := c.String("results")
	if results != "" {
		if results, err = filepath.Abs(results); err != nil {
			return status.Config{}, err
		}
	} else if results, err = cli.ResultsFile(dir); err != nil {
		return status.Config{}, err
	}
	scratch, err := os.MkdirTemp("", "cmdbridge-status-")
	if err != nil {
		return status.Config{}, err
	}
	defer os.RemoveAll(scratch)
	host := cli.HostOf(c)
	kcfg := assemble.Config{
		Config: kernel.Config{
			Workspace: scratch,
			Pack:      host.Pack,
			Evidence:  kernel.EvidenceConfig{Dir: filepath.Join(scratch, "evidence")},
		},
		Commands: host.Commands,
		Native:   host.Native,
	}
	var shadows *status.Shadows
	if ws := c.String("workspace"); ws != "" {
		// The served workspace's routes (its shadow routes above all) are the ones
		// its shadow runs were made under.
		if shadows, kcfg.Routes, err = shadowsOf(ws); err != nil {
			return status.Config{}, err
		}
	}
	k, err := assemble.Kernel(kcfg)
	if err != nil {
		return status.Config{}, err
	}
	defer k.Close()
	tier := func(name string) string {
		cmd, _ := host.Commands.Lookup(name)
		return cmd.Tier
	}
	opts := status.Config{Dir: dir, Results: results, Tier: tier, ParityCommand: cli.DevCommand(host, "parity"), Program: host.Program, Shadows: shadows}
	legacyOpts := adapter.Config{Binary: cli.SubprocessBinary(c)}
	for _, spec := range k.Tools() {
		route, _ := k.Route(spec.Name)
		t := status.Tool{Name: spec.Name, Domain: spec.Domain, Route: route, Warnings: spec.Warnings}
		if cmd, ok := host.Commands.Lookup(spec.Name); ok {
			t.Command, t.Domain, t.Source = true, cmd.Domain, commandSource(cmd)
			// The adapter route of a command that never runs in-process (its tier, or
			// nobody analysed it) is served on the subprocess lane: say what runs.
			if route == kernel.LaneAdapter && adapter.Route(cmd, legacyOpts) != "" {
				t.Route = status.RouteSubprocess
			}
		}
		_, t.Native = host.Native.Lookup(spec.Name)
		opts.Tools = append(opts.Tools, t)
	}
	return opts, nil
}

// commandSource is the Go file where a one-app-per-command command builds its app (the
// file of its New function), as the binary recorded it; "" for a tree leaf, whose New is
// the tree's closure and says nothing about the leaf.
func commandSource(cmd legacy.Command) string {
	if cmd.New == nil || cmd.Program != "" {
		return ""
	}
	fn := runtime.FuncForPC(reflect.ValueOf(cmd.New).Pointer())
	if fn == nil {
		return ""
	}
	file, _ := fn.FileLine(fn.Entry())
	return file
}

// shadowsOf reads the shadow runs of the served workspace ws from its evidence log
// (evidence.dir of its config.yaml, else the state directory's), its promotion rule and
// its routes.
func shadowsOf(ws string) (*status.Shadows, map[string]string, error) {
	ws, err := filepath.Abs(ws)
	if err != nil {
		return nil, nil, err
	}
	if st, err := os.Stat(ws); err != nil || !st.IsDir() {
		return nil, nil, fmt.Errorf("--workspace %s: not a directory (the served workspace whose shadow runs to report)", ws)
	}
	fc, err := cli.LoadWorkspaceConfig(ws)
	if err != nil {
		return nil, nil, err
	}
	d, err := statedir.Find(ws, os.LookupEnv)
	if err != nil {
		return nil, nil, err
	}
	dir := d.Path(statedir.Evidence)
	if fc.Evidence != nil && fc.Evidence.Dir != "" {
		dir = fc.Evidence.Dir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(ws, dir)
		}
	}
	tallies, verified, err := evidence.ShadowSummary(dir)
	if err != nil {
		return nil, nil, err
	}
	s := &status.Shadows{Workspace: ws, Tallies: tallies, Verified: verified}
	if p := fc.ShadowPromotion; p != nil {
		s.Rule = status.Promotion(*p)
	}
	return s, fc.Routes, nil
}
