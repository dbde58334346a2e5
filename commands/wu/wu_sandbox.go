package wu

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:sandbox",
		New: newWUSandboxApp, Main: convention.Main(newWUSandboxApp)})
}

func newWUSandboxApp() *cli.App {
	return convention.App(convention.Spec{
		Name:        "wu:sandbox",
		Usage:       "Run a command in a WU's worktree (directory isolation only, no OS sandbox)",
		Destructive: true,
		Flags: []cli.Flag{
			convention.WU("id", "the WU whose worktree to run in", true),
			&cli.StringFlag{Name: "worktree", Usage: "directory to run in (inside the workspace)"},
			convention.Duration("timeout", "kill the command's process group after this long", "10m"),
		},
		Args: []convention.Arg{{Name: "command", Required: true, Passthrough: true, Usage: "the command to run and its arguments"}},
		// The action checks the passthrough (argv checking cannot see past "--").
		Enforces: []convention.Rule{convention.Required("command")},
		Paths:    map[string]string{"worktree": "write"},
		RunsCode: true,
		Action:   wuSandbox,
	})
}

// wuSandbox is the shell around ops.WUSandbox: in text mode the command's streams go to
// stdout and stderr as they come, in JSON mode they are captured into the data.
func wuSandbox(c *convention.Call) error {
	argv := c.Passthrough()
	if len(argv) == 0 {
		// The passthrough is only visible here; argv checking cannot see past "--".
		return delivery.Errorf(tool.CodeUsage, "missing required argument COMMAND")
	}
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	cwd, err := c.Dir()
	if err != nil {
		return err
	}
	// wu:sandbox writes nothing itself, and the command it runs may be a delivery writer
	// of this worktree: end the run's journal, and with it the worktree's journal lock,
	// which the command would otherwise wait for forever.
	if err := c.Runtime().EndJournal(c.Context(), false); err != nil {
		return err
	}
	timeout, _ := convention.ParseDuration(c.Value("timeout"))
	in := ops.WUSandboxInput{ID: c.Value("id"), Worktree: c.String("worktree"), Dir: cwd, Command: argv,
		Timeout: timeout, TimeoutText: c.Value("timeout")}
	if !c.JSON {
		in.Stdout, in.Stderr = os.Stdout, c.Stderr()
	}
	data, notes, err := ops.WUSandbox(c.Context(), ws, c.Runtime(), in)
	c.Notes(notes)
	if de := delivery.AsError(err); err != nil && de.Code == tool.CodeCheckFailed {
		c.Partial(data)
		return err
	}
	if err != nil {
		return err
	}
	return c.Print("", data)
}
