package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:cleanup",
		New: newWUCleanupApp, Main: convention.Main(newWUCleanupApp)})
}

func newWUCleanupApp() *cli.App {
	return convention.App(convention.Spec{
		Name:        "wu:cleanup",
		Usage:       "Remove the worktree, lane branch and lock left behind by a done WU",
		Destructive: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.WU("id", "the done WU to clean up", true),
		},
		Action: wuCleanup,
	})
}

func wuCleanup(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WUCleanup(c.Context(), ws, c.Runtime(), ops.WUCleanupInput{ID: c.Value("id")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.Result(notes.Headline, data)
}
