package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:preflight",
		New: newWUPreflightApp, Main: convention.Main(newWUPreflightApp)})
}

func newWUPreflightApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "wu:preflight",
		Usage:    "Check that a WU's code and test paths exist before its gates run",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("id", "WU to check", true),
			&cli.StringFlag{Name: "worktree", Usage: "base directory (default: the WU's worktree if it exists, otherwise the root)"},
		},
		Paths:  map[string]string{"worktree": "read"},
		Action: wuPreflight,
	})
}

func wuPreflight(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	in := ops.WUPreflightInput{ID: c.Value("id"), Worktree: c.String("worktree")}
	if in.Worktree != "" {
		if in.Dir, err = c.Dir(); err != nil {
			return err
		}
	}
	data, notes, err := ops.WUPreflight(c.Context(), ws, in)
	if err == nil {
		return c.Print(notes.Text, data)
	}
	if delivery.AsError(err).Code != tool.CodeCheckFailed {
		return err // the WU could not be read: nothing was checked
	}
	// A check command reports what it found on stdout even when it fails.
	if !c.JSON {
		if err := c.Print(notes.Text, nil); err != nil {
			return err
		}
	}
	c.Partial(data)
	return err
}
