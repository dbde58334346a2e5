package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/surface/mcp"
	"github.com/cmdbridge/cmdbridge/surface/mcphost"
	"github.com/cmdbridge/cmdbridge/tool"
)

// viewFlags select the tools a server shows: --profile and --tools intersect (see
// kernel.View).
func viewFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringFlag{Name: "profile", Usage: "serve only the tools of this profile (built-in: read-only, non-destructive; more in .cmdbridge/config.yaml)"},
		&ucli.StringSliceFlag{Name: "tools", Usage: "serve only tools matching these names or globs (notes:*), repeatable; with --profile, the tools in both"},
	}
}

// dialectFlag chooses the form in which a server sends input schemas (tool.Dialect;
// docs/schemas.md).
func dialectFlag(dest *string) ucli.Flag {
	return &ucli.StringFlag{Name: "schema-dialect", Value: string(tool.DialectPortable), Destination: dest,
		Usage: "the form of the input schemas sent to hosts: portable (accepted as sent by OpenAI, Anthropic and Gemini), full (the schema the kernel validates against), openai-strict (OpenAI's strict form where it is exact)"}
}

// onDemandFlag lists three tools that find, describe and call the others instead of
// every tool (mcp.Config.OnDemand).
func onDemandFlag(dest *bool) ucli.Flag {
	return &ucli.BoolFlag{Name: "on-demand", Destination: dest, Usage: "list only tools_search, tool_describe and tool_call, which find, describe and call the other tools (for hosts that cannot afford the whole list)"}
}

// mcpConfig configures the MCP servers of host as the flags ask.
func mcpConfig(host Host, dialect tool.Dialect, onDemand bool) mcp.Config {
	return mcp.Config{Name: host.serverName(), Version: host.version(), SchemaDialect: dialect, OnDemand: onDemand}
}

// parseDialect is --schema-dialect's value, a usage error when it names none.
func parseDialect(s string) (tool.Dialect, error) {
	d, err := tool.ParseDialect(s)
	if err != nil {
		return "", usageError("%v", err)
	}
	return d, nil
}

func viewOf(c *ucli.Context) kernel.View {
	return kernel.View{Profile: c.String("profile"), Tools: c.StringSlice("tools")}
}

type mcpServeOptions struct {
	IO     ioStreams
	Host   Host
	Kernel kernelOpener

	Scopes   []string
	Dialect  string
	OnDemand bool
	View     kernel.View
}

// newMCPCmd serves the tools over MCP on stdio, and groups the commands that wire the
// server into an MCP host.
func newMCPCmd(f *factory, runF func(*mcpServeOptions) error) *ucli.Command {
	opts := &mcpServeOptions{IO: f.IO, Host: f.Host}
	return &ucli.Command{
		Name:  "mcp",
		Usage: "serve the tools over MCP on stdin/stdout (calls run non-interactively through the kernel); enable, disable, list: wire it into a host; profiles: the tool subsets --profile names",
		Flags: append([]ucli.Flag{
			&ucli.StringSliceFlag{Name: "scope", Usage: "the client's scope read:PATH or write:PATH, repeatable (default: write on the workspace)"},
			dialectFlag(&opts.Dialect), onDemandFlag(&opts.OnDemand),
		}, viewFlags()...),
		Subcommands: []*ucli.Command{newMCPEnableCmd(f, nil), newMCPDisableCmd(f, nil), newMCPListCmd(f, nil), newMCPProfilesCmd(f, nil)},
		Action: func(c *ucli.Context) error {
			if c.NArg() > 0 {
				return usageError("mcp: unknown subcommand %q (enable, disable, list, profiles; none to serve)", c.Args().First())
			}
			opts.Scopes, opts.View, opts.Kernel = c.StringSlice("scope"), viewOf(c), kernelOf(c)
			if runF != nil {
				return runF(opts)
			}
			return runMCPServe(opts)
		},
	}
}

func runMCPServe(opts *mcpServeOptions) error {
	caller, err := callerOf(opts.Scopes)
	if err != nil {
		return err
	}
	dialect, err := parseDialect(opts.Dialect)
	if err != nil {
		return err
	}
	caller.Subject = "mcp:" + caller.Subject
	store, withStore := hostStore()
	defer store.Close()
	k, err := opts.Kernel(withStore, func(cfg *kernelConfig) { cfg.View = opts.View })
	if err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	defer k.Close()
	if label := k.ViewLabel(); label != "" {
		fmt.Fprintf(opts.IO.ErrOut, "%s mcp: serving %d tools (%s)\n", opts.Host.Name, len(k.Tools()), label)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The MCP transport is this process's stdio, whatever writers Main was handed.
	if err := mcp.ServeStdio(ctx, k, caller, os.Stdin, os.Stdout, mcpConfig(opts.Host, dialect, opts.OnDemand)); err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
}

func hostFlags(nameUsage string, host, name *string) []ucli.Flag {
	return []ucli.Flag{
		&ucli.StringFlag{Name: "scope", Value: mcphost.ScopeProject, Usage: "project (a file in the workspace) or user (a file under $HOME)", Destination: host},
		&ucli.StringFlag{Name: "name", Usage: nameUsage, Destination: name},
	}
}

type mcpEnableOptions struct {
	IO     ioStreams
	Host   Host
	Kernel kernelOpener

	Target    mcphost.Target // the host's file, from the argument and --scope
	Workspace string
	Scope     string
	Name      string
	Bin       string // the global --bin
	View      kernel.View
}

func newMCPEnableCmd(f *factory, runF func(*mcpEnableOptions) error) *ucli.Command {
	opts := &mcpEnableOptions{IO: f.IO, Host: f.Host}
	return &ucli.Command{
		Name:      "enable",
		Usage:     "add (or update) a server entry that launches this cmdbridge on this workspace to a host's MCP configuration",
		ArgsUsage: strings.Join(mcphost.Hosts, "|"),
		Flags:     append(hostFlags("server entry name (default: cmdbridge-<workspace directory name>)", &opts.Scope, &opts.Name), viewFlags()...),
		Action: func(c *ucli.Context) error {
			var err error
			if opts.Target, opts.Workspace, err = hostTarget(c, opts.Scope); err != nil {
				return err
			}
			opts.Bin, opts.View, opts.Kernel = c.String("bin"), viewOf(c), kernelOf(c)
			if runF != nil {
				return runF(opts)
			}
			return runMCPEnable(opts)
		},
	}
}

func runMCPEnable(opts *mcpEnableOptions) error {
	t, ws, view := opts.Target, opts.Workspace, opts.View
	// Fail now, not when the host starts the server: the view must resolve.
	k, err := opts.Kernel(func(cfg *kernelConfig) { cfg.View = view })
	if err != nil {
		return fmt.Errorf("mcp enable: %w", err)
	}
	ntools := len(k.Tools())
	_ = k.Close()
	command, args, err := enableEntry(opts)
	if err != nil {
		return fmt.Errorf("mcp enable: %w", err)
	}
	name := opts.Name
	if name == "" {
		name = defaultServerName(ws)
	}
	ch, err := mcphost.Enable(t, name, mcphost.Entry{Command: command, Args: args})
	if err != nil {
		return fmt.Errorf("mcp enable: %w", err)
	}
	w := opts.IO.Out
	where := fmt.Sprintf("%s (%s, %s scope) %s", t.Host, t.App, t.Scope, t.Path)
	switch ch.Action {
	case mcphost.Unchanged:
		fmt.Fprintf(w, "%s: server %q already launches %s %s; nothing changed\n", where, name, command, strings.Join(args, " "))
	default:
		fmt.Fprintf(w, "%s: %s server %q: %s %s (%d tools)\n", where, ch.Action, name, command, strings.Join(args, " "), ntools)
	}
	if ch.Backup != "" {
		fmt.Fprintf(w, "previous file saved as %s\n", ch.Backup)
	}
	return nil
}

// enableEntry is the command and arguments of the server entry mcp enable writes. A
// project-scope file is committed: it names the workspace and the programs in the
// host's own terms, so it works in every clone (portable).
func enableEntry(opts *mcpEnableOptions) (string, []string, error) {
	t, ws := opts.Target, opts.Workspace
	exe, err := executable(opts.Host)
	if err != nil {
		return "", nil, err
	}
	command, wsArg := exe, ws
	if t.ProjectRef != "" {
		if command, err = portable(t, exe, ws); err != nil {
			return "", nil, err
		}
		wsArg = t.ProjectRef
	}
	self := append([]string(nil), opts.Host.Self...)
	if t.ProjectRef != "" {
		for _, i := range opts.Host.SelfPaths {
			if self[i], err = portable(t, self[i], ws); err != nil {
				return "", nil, err
			}
		}
	}
	args := append(self, "--workspace", wsArg)
	if opts.Bin != "" {
		abs, err := filepath.Abs(opts.Bin)
		if err != nil {
			return "", nil, fmt.Errorf("--bin: %w", err)
		}
		if t.ProjectRef != "" {
			if abs, err = portable(t, abs, ws); err != nil {
				return "", nil, fmt.Errorf("--bin: %w", err)
			}
		}
		args = append(args, "--bin", abs)
	}
	args = append(args, "mcp")
	if opts.View.Profile != "" {
		args = append(args, "--profile", opts.View.Profile)
	}
	for _, p := range opts.View.Tools {
		args = append(args, "--tools", p)
	}
	return command, args, nil
}

type mcpDisableOptions struct {
	IO   ioStreams
	Host Host

	Target    mcphost.Target
	Workspace string
	Scope     string
	Name      string // only this entry (default: every entry launching this cmdbridge here)
}

func newMCPDisableCmd(f *factory, runF func(*mcpDisableOptions) error) *ucli.Command {
	opts := &mcpDisableOptions{IO: f.IO, Host: f.Host}
	return &ucli.Command{
		Name:      "disable",
		Usage:     "remove the server entries that launch this cmdbridge on this workspace from a host's MCP configuration",
		ArgsUsage: strings.Join(mcphost.Hosts, "|"),
		Flags:     hostFlags("remove only this entry (default: every entry launching this cmdbridge with this workspace)", &opts.Scope, &opts.Name),
		Action: func(c *ucli.Context) error {
			var err error
			if opts.Target, opts.Workspace, err = hostTarget(c, opts.Scope); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runMCPDisable(opts)
		},
	}
}

func runMCPDisable(opts *mcpDisableOptions) error {
	t, ws := opts.Target, opts.Workspace
	exe, err := executable(opts.Host)
	if err != nil {
		return fmt.Errorf("mcp disable: %w", err)
	}
	servers, err := mcphost.Entries(t)
	if err != nil {
		return fmt.Errorf("mcp disable: %w", err)
	}
	var names []string
	for _, s := range servers {
		switch name := opts.Name; {
		case name == "" && ours(s, exe, ws, t.ProjectRef):
			names = append(names, s.Name)
		case name != "" && s.Name == name:
			if s.Command == "" || !mcphost.SameProgram(s.Command, exe) {
				return fmt.Errorf("mcp disable: %s: server %q does not launch cmdbridge (%s); left alone", t.Path, name, s.Command)
			}
			names = append(names, s.Name)
		}
	}
	ch, err := mcphost.Disable(t, names)
	if err != nil {
		return fmt.Errorf("mcp disable: %w", err)
	}
	w := opts.IO.Out
	where := fmt.Sprintf("%s (%s, %s scope) %s", t.Host, t.App, t.Scope, t.Path)
	if ch.Action == mcphost.Absent {
		fmt.Fprintf(w, "%s: no server entry for this workspace; nothing changed\n", where)
		return nil
	}
	fmt.Fprintf(w, "%s: removed server %s\n", where, quoteAll(ch.Names))
	if ch.FileRemoved {
		fmt.Fprintf(w, "the file held nothing else and was removed\n")
	}
	if ch.Backup != "" {
		fmt.Fprintf(w, "previous file saved as %s\n", ch.Backup)
	}
	return nil
}

type mcpListOptions struct {
	IO        ioStreams
	Host      Host
	Workspace func() (string, error)
	JSON      bool
}

func newMCPListCmd(f *factory, runF func(*mcpListOptions) error) *ucli.Command {
	opts := &mcpListOptions{IO: f.IO, Host: f.Host}
	return &ucli.Command{
		Name:  "list",
		Usage: "show, per host and scope, the server entries that launch this cmdbridge on this workspace",
		Flags: []ucli.Flag{&ucli.BoolFlag{Name: "json", Usage: "print JSON", Destination: &opts.JSON}},
		Action: func(c *ucli.Context) error {
			opts.Workspace = workspaceOf(c)
			if runF != nil {
				return runF(opts)
			}
			return runMCPList(opts)
		},
	}
}

// entryRow is one host file (and server entry, when it has one of ours) of mcp list.
type entryRow struct {
	Host    string   `json:"host"`
	Scope   string   `json:"scope"`
	App     string   `json:"app"`
	Path    string   `json:"path"`
	Name    string   `json:"name,omitempty"`
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	Error   string   `json:"error,omitempty"`
}

func runMCPList(opts *mcpListOptions) error {
	ws, err := opts.Workspace()
	if err != nil {
		return fmt.Errorf("mcp list: %w", err)
	}
	exe, err := executable(opts.Host)
	if err != nil {
		return fmt.Errorf("mcp list: %w", err)
	}
	var rows []entryRow
	for _, host := range mcphost.Hosts {
		for _, scope := range mcphost.Scopes(host) {
			rows = append(rows, entryRows(host, scope, exe, ws)...)
		}
	}
	if opts.JSON {
		return printJSON(opts.IO.Out, rows)
	}
	tw := tabwriter.NewWriter(opts.IO.Out, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "HOST\tSCOPE\tFILE\tSERVER\tARGS")
	for _, r := range rows {
		switch {
		case r.Error != "":
			fmt.Fprintf(tw, "%s\t%s\t%s\t-\terror: %s\n", r.Host, r.Scope, r.Path, r.Error)
		case r.Name == "":
			fmt.Fprintf(tw, "%s\t%s\t%s\t-\t(not enabled)\n", r.Host, r.Scope, r.Path)
		default:
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Host, r.Scope, r.Path, r.Name, strings.Join(r.Args, " "))
		}
	}
	return tw.Flush()
}

// entryRows are the rows of one host's file of one scope: an entry of ours per row, or
// the file alone when it has none (or cannot be read).
func entryRows(host, scope, exe, ws string) []entryRow {
	t, err := mcphost.Locate(host, scope, os.LookupEnv, ws)
	if err != nil {
		return []entryRow{{Host: host, Scope: scope, Error: err.Error()}}
	}
	base := entryRow{Host: host, Scope: scope, App: t.App, Path: t.Path}
	servers, err := mcphost.Entries(t)
	if err != nil {
		base.Error = err.Error()
		return []entryRow{base}
	}
	var rows []entryRow
	for _, s := range servers {
		if ours(s, exe, ws, t.ProjectRef) {
			r := base
			r.Name, r.Command, r.Args = s.Name, s.Command, s.Args
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		rows = append(rows, base)
	}
	return rows
}

type mcpProfilesOptions struct {
	IO        ioStreams
	Kernel    kernelOpener
	Workspace func() (string, error)
	JSON      bool
}

func newMCPProfilesCmd(f *factory, runF func(*mcpProfilesOptions) error) *ucli.Command {
	opts := &mcpProfilesOptions{IO: f.IO}
	return &ucli.Command{
		Name:  "profiles",
		Usage: "list the profiles --profile accepts, with the number of tools each serves in this workspace",
		Flags: []ucli.Flag{&ucli.BoolFlag{Name: "json", Usage: "print JSON", Destination: &opts.JSON}},
		Action: func(c *ucli.Context) error {
			opts.Workspace, opts.Kernel = workspaceOf(c), kernelOf(c)
			if runF != nil {
				return runF(opts)
			}
			return runMCPProfiles(opts)
		},
	}
}

// profileRow is one profile of mcp profiles.
type profileRow struct {
	Name        string `json:"name"`
	Source      string `json:"source"`
	Tools       int    `json:"tools"`
	Description string `json:"description"`
	Error       string `json:"error,omitempty"`
}

func runMCPProfiles(opts *mcpProfilesOptions) error {
	ws, err := opts.Workspace()
	if err != nil {
		return fmt.Errorf("mcp profiles: %w", err)
	}
	fc, err := loadWorkspaceConfig(ws)
	if err != nil {
		return fmt.Errorf("mcp profiles: %w", err)
	}
	var cfg kernel.Config
	if err := fc.Apply(&cfg); err != nil {
		return fmt.Errorf("mcp profiles: %w", err)
	}
	builtin := kernel.BuiltinProfiles()
	all := kernel.Profiles(cfg)
	var rows []profileRow
	bad := false
	for _, name := range kernel.ProfileNames(cfg) {
		r := profileRow{Name: name, Source: kernel.ConfigFile, Description: all[name].Description}
		if _, configured := cfg.Profiles[name]; !configured && builtin[name].Description != "" {
			r.Source = "built-in"
		}
		k, err := opts.Kernel(func(cfg *kernelConfig) { cfg.View = kernel.View{Profile: name} })
		if err != nil {
			r.Error, bad = err.Error(), true
		} else {
			r.Tools = len(k.Tools())
			_ = k.Close()
		}
		rows = append(rows, r)
	}
	if err := printProfiles(opts, rows); err != nil {
		return err
	}
	if bad {
		return ErrSilent
	}
	return nil
}

// printProfiles prints the rows of mcp profiles, as JSON or a table.
func printProfiles(opts *mcpProfilesOptions, rows []profileRow) error {
	if opts.JSON {
		return printJSON(opts.IO.Out, rows)
	}
	tw := tabwriter.NewWriter(opts.IO.Out, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "PROFILE\tSOURCE\tTOOLS\tDESCRIPTION")
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\t%s\t-\terror: %s\n", r.Name, r.Source, r.Error)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", r.Name, r.Source, r.Tools, r.Description)
	}
	return tw.Flush()
}

// hostTarget reads the host argument and --scope (scope) of enable and disable.
func hostTarget(c *ucli.Context, scope string) (mcphost.Target, string, error) {
	if c.NArg() != 1 {
		return mcphost.Target{}, "", usageError("mcp %s: name one host: %s", c.Command.Name, strings.Join(mcphost.Hosts, ", "))
	}
	ws, err := workspaceDir(c)
	if err != nil {
		return mcphost.Target{}, "", fmt.Errorf("mcp %s: %w", c.Command.Name, err)
	}
	t, err := mcphost.Locate(c.Args().First(), scope, os.LookupEnv, ws)
	if err != nil {
		return mcphost.Target{}, "", usageError("mcp %s: %v", c.Command.Name, err)
	}
	return t, ws, nil
}

// executable is the absolute path of the program that re-launches this command line
// (Host.Executable, else this binary), which the MCP host will launch.
func executable(h Host) (string, error) {
	if h.Executable != "" {
		return filepath.Abs(h.Executable)
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find this executable: %w", err)
	}
	return filepath.Abs(exe)
}

// ours reports whether s launches this cmdbridge (same program) on workspace ws, named
// by its path or, in a project-scope file, by ref (the host's variable for the project).
func ours(s mcphost.Server, exe, ws, ref string) bool {
	if s.Command == "" || !mcphost.SameProgram(s.Command, exe) {
		return false
	}
	i := slices.Index(s.Args, "--workspace")
	return i >= 0 && i+1 < len(s.Args) && (s.Args[i+1] == ws || ref != "" && s.Args[i+1] == ref)
}

// portable names the program at path (absolute) for a project-scope file of t, which
// every clone shares: by its name when that name finds this same program on PATH; else,
// inside the workspace ws, by the host's project variable and the path from there
// (${workspaceFolder}/bin/cmdbridge). Anything else would be this machine's path.
func portable(t mcphost.Target, path, ws string) (string, error) {
	name := filepath.Base(path)
	if found, err := exec.LookPath(name); err == nil {
		a, errA := os.Stat(found)
		b, errB := os.Stat(path)
		if errA == nil && errB == nil && os.SameFile(a, b) {
			return name, nil
		}
	}
	if rel, err := filepath.Rel(ws, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
		return t.ProjectRef + "/" + filepath.ToSlash(rel), nil
	}
	return "", fmt.Errorf("%s is neither inside the workspace nor found as %q on PATH, and a %s-scope file is shared by every clone; "+
		"put it inside the workspace (or, for a program, %s on PATH), or use --scope user (this machine's own file)", path, name, t.Scope, name)
}

// defaultServerName is cmdbridge-<workspace directory name>, folded to lower-case
// letters, digits and dashes.
func defaultServerName(ws string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(filepath.Base(ws)) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	name := strings.TrimRight(b.String(), "-")
	if name == "" {
		return "cmdbridge"
	}
	return "cmdbridge-" + name
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
