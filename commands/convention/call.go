package convention

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/gitrepo"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Call is one accepted invocation of a command: typed access to its flags and
// positionals, and the only way it writes output (so every command follows corpus §2.2).
type Call struct {
	// Name is the canonical command name, the prefix of every diagnostic.
	Name string
	// JSON is true when --json was given: the result is one envelope on stdout.
	JSON bool

	cli      *cli.Context
	runtime  *delivery.Runtime
	spec     *Spec
	stdout   io.Writer
	stderr   io.Writer
	warnings []string
	partial  any
	written  bool
}

// Context is the call's context (cancelled on timeout by the adapter). It carries the
// process environment (gitrepo.WithEnv), the legacy command's own: the delivery
// functions that take no environment (InWorkTree, a bare gitrepo.Git, RunGates) give
// git and the gates all of it, as a command run in its own process does.
func (c *Call) Context() context.Context {
	return gitrepo.WithEnv(c.cli.Context, os.LookupEnv, os.Environ)
}

// Runtime is the invocation's clock, id source and owner (corpus §2.5). An app run
// without Run (tests calling App.Run directly) gets one built from the process
// environment.
func (c *Call) Runtime() *delivery.Runtime {
	if c.runtime == nil {
		cwd, _ := os.Getwd()
		rt, err := delivery.NewRuntime(cwd, os.LookupEnv)
		if err != nil {
			rt, _ = delivery.NewRuntime(cwd, func(string) (string, bool) { return "", false })
		}
		rt.SetEnviron(os.Environ)
		c.runtime = rt
	}
	return c.runtime
}

// Dir is the directory the command was started in.
func (c *Call) Dir() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", delivery.Errorf(tool.CodeIOError, "current directory: %w", err)
	}
	return d, nil
}

// Workspace opens the workspace of the directory the command was started in (corpus §1.1:
// NO_WORKSPACE when there is none) and checks the configuration keys the command is about
// to read, so a wrong-typed value is CONFIG_INVALID before anything else happens.
func (c *Call) Workspace(keys ...string) (*delivery.Workspace, error) {
	cwd, err := c.Dir()
	if err != nil {
		return nil, err
	}
	root, checkout, err := delivery.FindRoot(c.Context(), cwd, c.LookupEnv)
	if err != nil {
		return nil, err
	}
	// The run's writes are rolled back if it fails. Beginning the journal replays one a
	// killed run left, so it comes before anything is read.
	if _, err := c.Runtime().Journal(c.Context(), root); err != nil {
		return nil, err
	}
	ws, err := delivery.Load(root, checkout)
	if err != nil {
		return nil, err
	}
	if len(keys) > 0 {
		if err := ws.Config.Check(keys...); err != nil {
			return nil, err
		}
	}
	return ws, nil
}

// Commit applies corpus §2.4 to the root-relative paths the command wrote: one pathspec
// commit, push failures printed as warnings. It returns the commit as rule R4 renders it
// (with the pushed branch), or nil when nothing changed.
func (c *Call) Commit(ws *delivery.Workspace, subject string, paths ...string) (*Commit, error) {
	cm, warnings, err := delivery.CommitArtifacts(c.Context(), ws, c.Runtime(), subject, paths)
	for _, w := range warnings {
		c.Warn("%s", w)
	}
	if err != nil || cm == nil {
		return nil, err
	}
	out := &Commit{SHA: cm.SHA, Subject: cm.Subject, Pushed: cm.Pushed}
	if cm.Pushed {
		out.Branch, _ = delivery.NewGit(ws.Root, c.Runtime()).CurrentBranch(c.Context())
	}
	return out, nil
}

// LookupEnv is the environment as the delivery package reads it.
func (c *Call) LookupEnv(key string) (string, bool) { return os.LookupEnv(key) }

// String returns a STRING flag's value.
func (c *Call) String(flag string) string { return c.cli.String(flag) }

// Int returns an INT flag's value (its default when absent).
func (c *Call) Int(flag string) int { return c.cli.Int(flag) }

// Bool returns a BOOL flag's value.
func (c *Call) Bool(flag string) bool { return c.cli.Bool(flag) }

// Strings returns a repeatable flag's values, in argv order (never split on commas).
func (c *Call) Strings(flag string) []string { return c.cli.StringSlice(flag) }

// Value returns a typed flag's (enum, DATE, DURATION, WU…) value as given, or its
// default.
func (c *Call) Value(flag string) string {
	if v := c.cli.Generic(flag); v != nil {
		if s, ok := v.(fmt.Stringer); ok {
			return s.String()
		}
	}
	return ""
}

// IsSet reports whether the flag occurs in argv.
func (c *Call) IsSet(flag string) bool { return c.cli.IsSet(flag) }

// Arg returns the positional declared with this field name, or "" when absent.
func (c *Call) Arg(name string) string {
	k := 0
	for _, a := range c.spec.Args {
		if a.Passthrough {
			continue
		}
		if a.Name == name {
			return c.cli.Args().Get(k)
		}
		k++
	}
	return ""
}

// Passthrough returns the arguments after "--" for a command that declares a
// passthrough positional.
func (c *Call) Passthrough() []string {
	n := 0
	for _, a := range c.spec.Args {
		if !a.Passthrough {
			n++
		}
	}
	if args := c.cli.Args().Slice(); len(args) > n {
		return args[n:]
	}
	return nil
}

// Getenv reads an environment variable (the adapter swaps declared variables in).
func (c *Call) Getenv(key string) string { return os.Getenv(key) }

// Warn prints "[<command>] warning: <message>" on stderr now and lists the message in
// the envelope's warnings.
func (c *Call) Warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	c.warnings = append(c.warnings, msg)
	fmt.Fprintf(c.stderr, "[%s] warning: %s\n", c.Name, msg)
}

// Progress prints a plain "[<command>] <message>" diagnostic line on stderr.
func (c *Call) Progress(format string, args ...any) {
	fmt.Fprintf(c.stderr, "[%s] %s\n", c.Name, fmt.Sprintf(format, args...))
}

// Stderr is where child-process output goes (corpus §2.2).
func (c *Call) Stderr() io.Writer { return c.stderr }

// Result reports success: in text mode the headline (R1), then the scalar fields of data
// (R2) and its commit (R4, when data has a non-nil *Commit in a "commit" field reachable
// through a Committed method); with --json the envelope. The action returns its error.
func (c *Call) Result(headline string, data any) error {
	text := ""
	if !c.JSON {
		fields, err := Fields(data)
		if err != nil {
			return fmt.Errorf("render %s result: %w", c.Name, err)
		}
		if headline != "" {
			text = headline + "\n"
		}
		text += fields
		if cm, ok := data.(interface{ Committed() *Commit }); ok {
			text += CommitLines(cm.Committed())
		}
	}
	return c.Print(text, data)
}

// Notes prints and lists an operation's warnings (package ops), in order.
func (c *Call) Notes(notes ops.Notes) {
	for _, w := range notes.Warnings {
		c.Warn("%s", w)
	}
}

// OpsResult is Result for an operation's data (package ops), whose commit comes apart
// from it: the headline (R1), the scalar fields (R2), the commit (R4) and trailer, text
// printed after all of them; with --json the envelope.
func (c *Call) OpsResult(headline string, data any, cm *ops.Commit, trailer string) error {
	if c.JSON {
		return c.Print("", data)
	}
	fields, err := Fields(data)
	if err != nil {
		return fmt.Errorf("render %s result: %w", c.Name, err)
	}
	text := ""
	if headline != "" {
		text = headline + "\n"
	}
	return c.Print(text+fields+CommitLines(OpsCommit(cm))+trailer, data)
}

// OpsCommit is an operation's commit for rule R4 (nil stays nil).
func OpsCommit(cm *ops.Commit) *Commit {
	if cm == nil {
		return nil
	}
	return &Commit{SHA: cm.SHA, Subject: cm.Subject, Pushed: cm.Pushed, Branch: cm.Branch}
}

// Print reports success with text printed exactly as given in text mode (no newline
// added or removed), for commands whose text layout is their own (file:read, git:diff),
// and data in the envelope with --json.
func (c *Call) Print(text string, data any) error {
	c.written = true
	if c.JSON {
		return WriteEnvelope(c.stdout, Envelope{OK: true, Command: c.Name, Data: data, Warnings: c.warnings})
	}
	_, err := io.WriteString(c.stdout, text)
	return err
}

// Fail returns the failure the action reports by returning it: code is one of spec
// §2.3's codes, details the envelope's error.details. A VALIDATION failure with no
// details lists its message as the only violation.
func (c *Call) Fail(code, message string, details any) error {
	return &delivery.Error{Code: code, Message: message, Details: details}
}

// Failf is Fail with a formatted message and no details.
func (c *Call) Failf(code, format string, args ...any) error {
	return c.Fail(code, fmt.Sprintf(format, args...), nil)
}

// FailReporting ends a command whose operation failed with a failure that still reports
// what it found (a check's CHECK_FAILED, a gate run's GATES_FAILED): in text mode text
// still goes to stdout, and with --json data is the failure envelope's data.
func (c *Call) FailReporting(err error, text string, data any) error {
	if !c.JSON {
		if perr := c.Print(text, nil); perr != nil {
			return perr
		}
	}
	c.Partial(data)
	de := delivery.AsError(err)
	return c.Fail(de.Code, de.Message, nil)
}

// Partial sets the data a failure envelope carries (check commands report what they
// found even when they fail).
func (c *Call) Partial(data any) { c.partial = data }

// failure writes a failed result for err: one "[<command>] error: …" line per VALIDATION
// violation or one for the message, and the envelope with --json.
func (c *Call) failure(err error) int {
	de := delivery.AsError(err)
	te := &tool.Error{Code: de.Code, Message: de.Message, Details: de.Details}
	if te.Code == tool.CodeValidation {
		te.Details = validationDetails(te)
		for _, v := range te.Details.(map[string]any)["errors"].([]string) {
			fmt.Fprintf(c.stderr, "[%s] error: %s\n", c.Name, v)
		}
	} else {
		fmt.Fprintf(c.stderr, "[%s] error: %s\n", c.Name, te.Message)
	}
	if c.JSON {
		if werr := WriteEnvelope(c.stdout, Envelope{Command: c.Name, Data: c.partial, Error: te, Warnings: c.warnings}); werr != nil {
			fmt.Fprintf(c.stderr, "[%s] error: %v\n", c.Name, werr)
		}
	}
	return de.Exit()
}

// validationDetails normalises VALIDATION details to {"errors": [...], ...}.
func validationDetails(te *tool.Error) any {
	switch d := te.Details.(type) {
	case map[string]any:
		if errs, ok := d["errors"].([]string); ok && len(errs) > 0 {
			return d
		}
		out := map[string]any{}
		for k, v := range d {
			out[k] = v
		}
		out["errors"] = []string{te.Message}
		return out
	case []string:
		if len(d) > 0 {
			return map[string]any{"errors": d}
		}
	}
	return map[string]any{"errors": []string{te.Message}}
}
