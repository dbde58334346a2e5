package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:release",
		New: newWUReleaseApp, Main: convention.Main(newWUReleaseApp)})
}

func newWUReleaseApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:release",
		Usage: "Give up a claim and return the WU to ready",
		Flags: []cli.Flag{
			convention.WU("id", "WU to release", true),
			&cli.StringFlag{Name: "reason", Usage: "why the claim is given up", Value: ops.DefaultReleaseReason},
			&cli.BoolFlag{Name: "remove-worktree", Usage: "remove the WU's worktree (its branch is kept)"},
		},
		Destructive: true,
		Action:      wuRelease,
	})
}

func wuRelease(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WURelease(c.Context(), ws, c.Runtime(), ops.WUReleaseInput{ID: c.Value("id"),
		Reason: c.String("reason"), RemoveWorktree: c.Bool("remove-worktree")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
