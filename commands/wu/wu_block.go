package wu

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:block",
		New: newWUBlockApp, Main: convention.Main(newWUBlockApp)})
}

func newWUBlockApp() *cli.App {
	return convention.App(convention.Spec{
		Name:  "wu:block",
		Usage: "Mark an in-progress WU as blocked",
		Flags: []cli.Flag{
			convention.WU("id", "WU to block", true),
			nonEmpty("reason", "why the WU is blocked"),
			&cli.BoolFlag{Name: "remove-worktree", Usage: "remove the WU's worktree (its branch is kept)"},
		},
		Destructive: true,
		Effects:     []tool.Effect{tool.WritesWhen(tool.IsUnset("remove_worktree"))},
		Action:      wuBlock,
	})
}

func wuBlock(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	data, notes, err := ops.WUBlock(c.Context(), ws, c.Runtime(), ops.WUBlockInput{ID: c.Value("id"),
		Reason: c.Value("reason"), RemoveWorktree: c.Bool("remove-worktree")})
	c.Notes(notes)
	if err != nil {
		return err
	}
	return c.OpsResult(notes.Headline, data, data.Commit, "")
}
