package helptree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config bounds a discovery. Zero values take the defaults.
type Config struct {
	// Depth is how many levels of subcommands are read below the app (default 5): a
	// command at the limit that lists subcommands is served as a leaf, with a warning.
	Depth int
	// Commands caps the commands read (default 256); the others are left out, with a
	// warning on their parent.
	Commands int
	// Timeout bounds each run of the program (default 10s); Total the whole
	// discovery (default 60s).
	Timeout, Total time.Duration
	// Parallel is how many help runs go at once (default 4).
	Parallel int
	// Dir is the directory the program runs in (default: the current one); Env its
	// environment (nil: this process's).
	Dir string
	Env []string
	// Skip leaves a listed command (and its subtree) out without reading its help.
	Skip func(Entry) bool
}

func (o Config) withDefaults() Config {
	if o.Depth <= 0 {
		o.Depth = 5
	}
	if o.Commands <= 0 {
		o.Commands = 256
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Total <= 0 {
		o.Total = 60 * time.Second
	}
	if o.Parallel <= 0 {
		o.Parallel = 4
	}
	return o
}

// Node is the app (the root) or one command, with what its help page said.
type Node struct {
	// Path is the command's names below the program (nil for the app).
	Path []string
	// Entry is the command's line in its parent's COMMANDS section (zero for the app).
	Entry Entry
	// Page is its help page; nil when it could not be read (see Warnings).
	Page *Page
	// Children are its subcommands, in the order the page lists them.
	Children []*Node
	// Warnings are what could not be read or mapped at this node, one sentence each.
	Warnings []string
}

// Tree is a program's command tree as its help pages describe it.
type Tree struct {
	// Program is the executable that was run (an absolute path).
	Program string
	Root    *Node
}

// NotFoundError says the program is neither a path to an executable nor on $PATH.
type NotFoundError struct {
	Program string
	Err     error
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("program %q not found (%v): give a path (./bin/%s) or put its directory on $PATH", e.Program, e.Err, filepath.Base(e.Program))
}

func (e *NotFoundError) Unwrap() error { return e.Err }

// NotURFaveError says the program's --help is no urfave/cli v2 help page.
type NotURFaveError struct {
	Program string
	Reason  string
}

func (e *NotURFaveError) Error() string {
	return fmt.Sprintf("%s --help printed no urfave/cli v2 help: %s; wrap serves programs built with urfave/cli v2 and its default help templates (for another program, adopt it in Go: docs/adopt.md)", e.Program, e.Reason)
}

// Resolve finds the executable program names: a path (with a slash) made absolute, or
// a name looked up on $PATH.
func Resolve(program string) (string, error) {
	if program == "" {
		return "", &NotFoundError{Program: program, Err: errors.New("no program named")}
	}
	path := program
	if !strings.Contains(program, string(filepath.Separator)) {
		p, err := exec.LookPath(program)
		if err != nil {
			return "", &NotFoundError{Program: program, Err: err}
		}
		path = p
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", &NotFoundError{Program: program, Err: err}
	}
	st, err := os.Stat(abs)
	switch {
	case err != nil:
		return "", &NotFoundError{Program: program, Err: err}
	case st.IsDir():
		return "", &NotFoundError{Program: program, Err: errors.New("it is a directory")}
	case st.Mode()&0o111 == 0:
		return "", &NotFoundError{Program: program, Err: errors.New("it is not executable")}
	}
	return abs, nil
}

// Discover reads the command tree of program (see [Resolve]) from its help pages:
// `PROGRAM --help`, then for each listed command `PROGRAM PARENT… help NAME` when the
// parent lists urfave/cli's help command (which prints a page without running the
// command), else `PROGRAM PARENT… NAME --help`. It never runs a command otherwise, and
// every run is bounded (Config). It fails when the program cannot be found or run, or
// when its own help is no urfave/cli v2 help page; what it cannot read below the app
// becomes warnings of the nodes.
func Discover(ctx context.Context, program string, opts Config) (*Tree, error) {
	opts = opts.withDefaults()
	exe, err := Resolve(program)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Total)
	defer cancel()
	d := &discoverer{exe: exe, name: program, opts: opts, sem: make(chan struct{}, opts.Parallel)}
	out, err := d.run(ctx, "--help")
	if err != nil {
		return nil, fmt.Errorf("%s --help: %w", program, err)
	}
	page, err := out.page()
	if err != nil {
		reason := err.Error()
		var nh *ErrNotHelp
		if errors.As(err, &nh) {
			reason = nh.Reason
		}
		if out.code != 0 {
			reason += fmt.Sprintf(" (exit status %d%s)", out.code, out.stderrLine())
		}
		return nil, &NotURFaveError{Program: program, Reason: reason}
	}
	d.name = strings.Fields(page.HelpName)[0] // warnings spell runs as the program's help does
	root := &Node{Page: page, Warnings: page.Warnings}
	d.expand(ctx, root, 0)
	d.wg.Wait()
	return &Tree{Program: exe, Root: root}, nil
}

type discoverer struct {
	exe, name string
	opts      Config
	sem       chan struct{}
	wg        sync.WaitGroup
	count     atomic.Int64
}

// expand makes n's children from its page's COMMANDS and reads their pages, each in a
// goroutine of its own (at most Config.Parallel runs at once).
func (d *discoverer) expand(ctx context.Context, n *Node, depth int) {
	if n.Page == nil || len(n.Page.Commands) == 0 {
		return
	}
	if depth >= d.opts.Depth {
		n.Warnings = append(n.Warnings, fmt.Sprintf("its subcommands (%s) lie below the depth limit of %d levels: it is served as one tool without them", entryNames(n.Page.Commands), d.opts.Depth))
		return
	}
	var left []string
	for _, e := range n.Page.Commands {
		if d.opts.Skip != nil && d.opts.Skip(e) {
			continue
		}
		if d.count.Add(1) > int64(d.opts.Commands) {
			left = append(left, e.Names[0])
			continue
		}
		n.Children = append(n.Children, &Node{Path: append(append([]string(nil), n.Path...), e.Names[0]), Entry: e})
	}
	if len(left) > 0 {
		n.Warnings = append(n.Warnings, fmt.Sprintf("subcommands %s are left out: more than %d commands", strings.Join(left, ", "), d.opts.Commands))
	}
	for _, c := range n.Children {
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			d.read(ctx, n, c)
			d.expand(ctx, c, depth+1)
		}()
	}
}

// read fills c.Page from `help NAME` (when the parent offers it and the page is whole:
// urfave/cli's help command stops a group's page after USAGE) or `NAME --help`.
func (d *discoverer) read(ctx context.Context, parent, c *Node) {
	name := c.Entry.Names[0]
	var tries [][]string
	if parent.Page.HelpCommand {
		tries = append(tries, append(append([]string(nil), parent.Path...), "help", name))
	}
	tries = append(tries, append(append([]string(nil), c.Path...), "--help"))
	var why string
	for i, args := range tries {
		d.sem <- struct{}{}
		out, err := d.run(ctx, args...)
		<-d.sem
		cmdline := strings.Join(append([]string{d.name}, args...), " ")
		if err != nil {
			why = fmt.Sprintf("%s: %v", cmdline, err)
			continue
		}
		page, err := out.page()
		if err != nil {
			why = fmt.Sprintf("%s: %v", cmdline, err)
			if out.code != 0 {
				why += fmt.Sprintf(" (exit status %d%s)", out.code, out.stderrLine())
			}
			continue
		}
		if f := strings.Fields(page.HelpName); len(f) == 0 || !contains(c.Entry.Names, f[len(f)-1]) {
			why = fmt.Sprintf("%s printed the help of %q, not of %s", cmdline, page.HelpName, name)
			continue
		}
		if i == 0 && len(tries) > 1 && !page.Has("OPTIONS") && !page.Has("COMMANDS") {
			continue // possibly a group's page cut short: ask the command itself
		}
		c.Page, c.Warnings = page, append(c.Warnings, page.Warnings...)
		return
	}
	c.Warnings = append(c.Warnings, fmt.Sprintf("its help could not be read (%s): it is served without options or positionals", why))
}

// output is one run of the program.
type output struct {
	stdout, stderr []byte
	code           int
}

// page parses the help on stdout, else on stderr (an app whose Writer is stderr).
func (o output) page() (*Page, error) {
	p, err := Parse(string(o.stdout))
	if err != nil && len(bytes.TrimSpace(o.stdout)) == 0 && len(o.stderr) > 0 {
		if q, err2 := Parse(string(o.stderr)); err2 == nil {
			return q, nil
		}
	}
	return p, err
}

func (o output) stderrLine() string {
	line := strings.TrimSpace(strings.SplitN(strings.TrimSpace(string(o.stderr)), "\n", 2)[0])
	if line == "" {
		return ""
	}
	return ", stderr: " + clip(line, 120)
}

// maxOutput bounds what one run may print.
const maxOutput = 1 << 20

// run runs the program with args, stdin empty, bounded by Config.Timeout; a non-zero
// exit is no error (the caller judges the output).
func (d *discoverer) run(ctx context.Context, args ...string) (output, error) {
	ctx, cancel := context.WithTimeout(ctx, d.opts.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, d.exe, args...)
	cmd.Dir, cmd.Env = d.opts.Dir, d.opts.Env
	cmd.WaitDelay = time.Second // a child that keeps the pipes open cannot hold us
	var stdout, stderr limited
	stdout.n, stderr.n = maxOutput, maxOutput
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	out := output{stdout: stdout.b.Bytes(), stderr: stderr.b.Bytes()}
	if ctx.Err() != nil {
		return out, fmt.Errorf("it did not finish within %s", d.opts.Timeout)
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		out.code = ee.ExitCode()
	case err != nil:
		return out, err
	}
	return out, nil
}

// limited keeps the first n bytes written to it and discards the rest.
type limited struct {
	b bytes.Buffer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func entryNames(es []Entry) string {
	var names []string
	for _, e := range es {
		names = append(names, e.Names[0])
	}
	return strings.Join(names, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
