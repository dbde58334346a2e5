package convention

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// Main returns the command's main: it builds a fresh app with newApp and runs it on
// os.Args (see [Run]). This is what legacy.Command.Main holds.
func Main(newApp func() *cli.App) func(ctx context.Context) {
	return func(ctx context.Context) { Run(ctx, newApp(), os.Args) }
}

// Run runs app on argv (argv[0] is the command name) following corpus §2: usage errors are
// reported and exit 2 before anything runs; --help prints help and exits 0; otherwise
// the action runs and exits 1 on failure. Every exit goes through cli.Exit and
// cli.OsExiter; Run returns normally only on success.
func Run(ctx context.Context, app *cli.App, argv []string) {
	s := specOf(app)
	if s == nil {
		panic(fmt.Sprintf("convention.Run: app %q was not built by convention.App", app.Name))
	}
	var args []string
	if len(argv) > 1 {
		args = argv[1:]
	}
	// The environment of corpus §2.5 is checked first; the runtime it yields is the call's.
	cwd, _ := os.Getwd()
	rt, envErr := delivery.NewRuntime(cwd, os.LookupEnv)
	if envErr != nil {
		envErr = &UsageError{Message: envErr.Error()}
	} else {
		rt.SetEnviron(os.Environ) // git and the gates get the whole process environment
	}
	res, err := checkArgv(s, app.Flags, args, envErr)
	if err != nil {
		exitUsage(stdout(app), stderr(app), s.Name, res.json, err.Error())
		return
	}
	if res.help {
		argv = []string{s.Name, "--help"}
	}
	app.Metadata[metaRuntime] = rt
	if err := app.RunContext(ctx, append([]string{s.Name}, argv[1:]...)); err != nil {
		if _, coded := err.(cli.ExitCoder); coded {
			return // urfave/cli already exited with its code
		}
		// A problem urfave/cli found that argv checking did not: still a usage error.
		exitUsage(stdout(app), stderr(app), s.Name, res.json, err.Error())
	}
}

// action adapts a Spec's Action to urfave/cli: it builds the Call, recovers a panic as
// INTERNAL, writes the failure and turns the outcome into a cli.Exit value. The exit
// itself happens after this function returns, outside the recover.
func action(s *Spec) cli.ActionFunc {
	return func(cctx *cli.Context) error {
		c := &Call{Name: s.Name, JSON: cctx.Bool("json"), cli: cctx, spec: s,
			stdout: cctx.App.Writer, stderr: cctx.App.ErrWriter}
		c.runtime, _ = cctx.App.Metadata[metaRuntime].(*delivery.Runtime)
		if c.stderr == nil {
			c.stderr = os.Stderr
		}
		if code := c.run(); code != 0 {
			return cli.Exit("", code)
		}
		return nil
	}
}

func (c *Call) run() (code int) {
	defer func() {
		if v := recover(); v != nil {
			c.endJournal(true)
			code = c.failure(c.Fail(tool.CodeInternal, fmt.Sprintf("panic: %v", v), nil))
		}
	}()
	err := c.spec.Action(c)
	c.endJournal(err != nil)
	if err != nil {
		return c.failure(err)
	}
	if !c.written {
		// An action that returns without a result still answers with an envelope.
		_ = c.Print("", nil)
	}
	return 0
}

// endJournal ends the run's write journal (storage.Journal): a failed run's writes are
// rolled back, so the workspace is as the run found it; a rollback that itself fails is
// a warning on the failure.
func (c *Call) endJournal(failed bool) {
	if c.runtime == nil {
		return
	}
	if err := c.runtime.EndJournal(c.Context(), failed); err != nil {
		c.Warn("roll back: %v", err)
	}
}

// onUsageError turns an error urfave/cli found while parsing into corpus §2.1's message;
// Run's own argv checking normally finds it first.
func onUsageError(cctx *cli.Context, err error, _ bool) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		msg = "unknown flag --" + strings.TrimLeft(name, "-")
	} else if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		msg = "flag --" + strings.TrimLeft(name, "-") + " requires a value"
	}
	// The parsed arguments are gone after a parse error, so the envelope cannot be chosen.
	writeUsage(cctx.App.Writer, cctx.App.ErrWriter, cctx.App.Name, false, msg)
	return cli.Exit("", 2)
}

// exitUsage writes a usage error and exits 2 through cli.OsExiter.
func exitUsage(out, errw io.Writer, name string, asJSON bool, msg string) {
	writeUsage(out, errw, name, asJSON, msg)
	cli.HandleExitCoder(cli.Exit("", 2))
}

func writeUsage(out, errw io.Writer, name string, asJSON bool, msg string) {
	fmt.Fprintf(errw, "[%s] usage: %s\n", name, msg)
	if asJSON {
		_ = WriteEnvelope(out, Envelope{Command: name,
			Error: &tool.Error{Code: tool.CodeUsage, Message: msg}})
	}
}

func stdout(app *cli.App) io.Writer {
	if app.Writer != nil {
		return app.Writer
	}
	return os.Stdout
}

func stderr(app *cli.App) io.Writer {
	if app.ErrWriter != nil {
		return app.ErrWriter
	}
	return os.Stderr
}
